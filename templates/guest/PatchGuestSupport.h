// C declarations the guest's Swift code sees (passed to swiftc with -import-objc-header).
// The allocator is defined in support.c; the host reaches it through the same exported names.
#ifndef PATCH_GUEST_SUPPORT_H
#define PATCH_GUEST_SUPPORT_H

#include <stdint.h>

void *patch_malloc(int32_t size);
void patch_free(void *pointer);

// Host bridges the guest Foundation layer (Foundation*.swift) calls, sdk-contract §3. Declared in C
// with the import attributes because Swift's `@_extern(wasm)` gives a non-flat ABI the SDK's
// WasmKit rejects (§3.1). A declaration becomes a wasm import only when linked code calls it, so a
// module imports exactly the bridges the layer code it uses reaches.
// Strings in are (pointer, length) UTF-8; packed results are address << 32 | length of bytes the
// host allocated with patch_malloc (0 = nil or empty), which the guest frees.
#define PATCH_HOST(name) __attribute__((import_module("patch_host"), import_name(#name)))
#define PATCH_CORE(name) __attribute__((import_module("patch"), import_name(#name)))

// §3.2 Foundation value surface.
int64_t patch_host_now_unix_millis(void) PATCH_HOST(now_unix_millis);
int64_t patch_host_date_format(int64_t millis, const uint8_t *format, int32_t format_length, const uint8_t *zone, int32_t zone_length)
    PATCH_HOST(date_format);
int64_t patch_host_date_format_styled(int64_t millis, int32_t date_style, int32_t time_style, const uint8_t *locale, int32_t locale_length,
                                      const uint8_t *zone, int32_t zone_length) PATCH_HOST(date_format_styled);
int64_t patch_host_iso8601_format(int64_t millis) PATCH_HOST(iso8601_format);
int64_t patch_host_iso8601_parse(const uint8_t *text, int32_t length) PATCH_HOST(iso8601_parse);
int64_t patch_host_relative_date_format(int64_t millis, int64_t relative_to_millis, int32_t units_style, const uint8_t *locale,
                                        int32_t locale_length) PATCH_HOST(relative_date_format);
int64_t patch_host_number_format(int64_t value_bits, int32_t style, int32_t fraction_digits, const uint8_t *locale, int32_t locale_length)
    PATCH_HOST(number_format);
int64_t patch_host_calendar_date_op(int32_t op, int64_t first, int64_t second, int32_t component, const uint8_t *zone, int32_t zone_length)
    PATCH_HOST(calendar_date_op);
int64_t patch_host_calendar_component(int64_t millis, int32_t component, const uint8_t *zone, int32_t zone_length)
    PATCH_HOST(calendar_component);

// §3.3 host-ABI family.
int64_t patch_host_bundle_info_string(const uint8_t *key, int32_t key_length) PATCH_HOST(bundle_info_string);
int64_t patch_host_bundle_resource_path(const uint8_t *name, int32_t name_length, const uint8_t *ext, int32_t ext_length)
    PATCH_HOST(bundle_resource_path);
int32_t patch_host_defaults_get_bool(const uint8_t *key, int32_t key_length) PATCH_HOST(defaults_get_bool);
int64_t patch_host_defaults_get_int(const uint8_t *key, int32_t key_length) PATCH_HOST(defaults_get_int);
int64_t patch_host_defaults_get_double(const uint8_t *key, int32_t key_length) PATCH_HOST(defaults_get_double);
void patch_host_defaults_set_bool(const uint8_t *key, int32_t key_length, int32_t value) PATCH_HOST(defaults_set_bool);
void patch_host_defaults_set_int(const uint8_t *key, int32_t key_length, int64_t value) PATCH_HOST(defaults_set_int);
void patch_host_defaults_set_double(const uint8_t *key, int32_t key_length, int64_t bits) PATCH_HOST(defaults_set_double);

// §3.4 async: each returns at once ("suspended"); the host answers later through the guest's
// patch_resolve / patch_resolve_http exports (sdk-contract §4, Foundation+Async.swift).
void patch_host_async_request(int32_t token) PATCH_HOST(async_request);
void patch_host_http_get(const uint8_t *url, int32_t url_length, int32_t token) PATCH_HOST(http_get);
void patch_host_http_request(const uint8_t *method, int32_t method_length, const uint8_t *url, int32_t url_length,
                             const uint8_t *body, int32_t body_length, int32_t token) PATCH_HOST(http_request);

// §3.5 core bridges.
int64_t patch_locale_identifier(void) PATCH_CORE(locale_identifier);
int64_t patch_timezone_identifier(void) PATCH_CORE(timezone_identifier);
int64_t patch_defaults_get(const uint8_t *key, int32_t key_length) PATCH_CORE(defaults_get);
void patch_defaults_set(const uint8_t *key, int32_t key_length, const uint8_t *value, int32_t value_length) PATCH_CORE(defaults_set);
void patch_defaults_remove(const uint8_t *key, int32_t key_length) PATCH_CORE(defaults_remove);
void patch_log(int32_t level, const uint8_t *message, int32_t message_length) PATCH_CORE(log);

#undef PATCH_HOST
#undef PATCH_CORE

#endif
