// C view guest for the `run --view` tests: a patch_view_manifest with four views and the
// view_body__/dispatch__ exports of sdk-contract §5.4. Counter keeps `count` as guest state; Banner is
// read-only; Broken emits a node kind IR schema 6 does not have; Hidden is not thunkSafe; Sloppy renders
// fine but its dispatch returns a state that is not an object ("array") or a tree without modifiers ("tree").
// Built at test time with the toolchain clang: --target=wasm32 -nostdlib -Wl,--no-entry -Wl,--export-dynamic.
#include "bump_malloc.h"
__attribute__((export_name("patch_free"))) void patch_free(u32 p) { (void)p; }

static char out[4096]; static u32 used;
static void put(const char *s) { while (*s) out[used++] = *s++; }
static void put_int(int v) {
  char digits[12]; int n = 0;
  if (v < 0) { out[used++] = '-'; v = -v; }
  do { digits[n++] = (char)('0' + v % 10); v /= 10; } while (v);
  while (n) out[used++] = digits[--n];
}
static u64 finish(void) {
  char *result = (char *)patch_malloc(used);
  for (u32 i = 0; i < used; i++) result[i] = out[i];
  return ((u64)(u32)result << 32) | used;
}

// Finds `key` followed by quotes, backslashes and a colon: matches both {"count":1} and the
// escaped form inside the dispatch input's state string ({\"count\":1}).
static int find_value(const char *in, u32 len, const char *key) {
  for (u32 i = 1; i < len; i++) {
    u32 j = 0; while (key[j] && i + j < len && in[i + j] == key[j]) j++;
    if (key[j] || (in[i - 1] != '"' && in[i - 1] != '\\')) continue;
    u32 p = i + j; while (p < len && (in[p] == '"' || in[p] == '\\')) p++;
    if (p < len && in[p] == ':') return (int)(p + 1);
  }
  return -1;
}
static int read_int(const char *in, u32 len, const char *key, int fallback) {
  int p = find_value(in, len, key); if (p < 0) return fallback;
  int sign = 1, v = 0; if ((u32)p < len && in[p] == '-') { sign = -1; p++; }
  if ((u32)p >= len || in[p] < '0' || in[p] > '9') return fallback;
  while ((u32)p < len && in[p] >= '0' && in[p] <= '9') v = v * 10 + (in[p++] - '0');
  return sign * v;
}
static void put_string_value(const char *in, u32 len, const char *key, const char *fallback) {
  int p = find_value(in, len, key);
  if (p < 0) { put(fallback); return; }
  while ((u32)p < len && (in[p] == '\\' || in[p] == '"')) p++;
  while ((u32)p < len && in[p] != '"' && in[p] != '\\') out[used++] = in[p++];
}
static int starts(const char *in, u32 len, int p, const char *word) {
  for (u32 i = 0; word[i]; i++) if ((u32)p + i >= len || in[p + i] != word[i]) return 0;
  return 1;
}

__attribute__((export_name("patch_view_manifest"))) u64 patch_view_manifest(u32 ptr, u32 len) {
  (void)ptr; (void)len; used = 0;
  put("{\"schemaVersion\":1,\"views\":["
      "{\"type\":\"Counter\",\"export\":\"view_body__Counter\",\"dispatch\":\"dispatch__Counter\",\"thunkSafe\":true},"
      "{\"type\":\"Banner\",\"export\":\"view_body__Banner\",\"dispatch\":null,\"thunkSafe\":true},"
      "{\"type\":\"Broken\",\"export\":\"view_body__Broken\",\"thunkSafe\":true},"
      "{\"type\":\"Hidden\",\"export\":\"view_body__Hidden\",\"dispatch\":null,\"thunkSafe\":false},"
      "{\"type\":\"Sloppy\",\"export\":\"view_body__Sloppy\",\"dispatch\":\"dispatch__Sloppy\",\"thunkSafe\":true}]}");
  return finish();
}

static void counter_tree(const char *in, u32 len, int count) {
  put("{\"kind\":{\"vstack\":{\"alignment\":\"leading\",\"spacing\":8,\"children\":["
      "{\"kind\":{\"text\":{\"_0\":\"");
  put_string_value(in, len, "title", "Count"); put(": "); put_int(count);
  put("\"}},\"modifiers\":[{\"font\":{\"_0\":{\"style\":\"title\",\"size\":null,\"weight\":null,\"design\":null}}},{\"bold\":{}}]},"
      "{\"kind\":{\"stepper\":{\"label\":[{\"kind\":{\"text\":{\"_0\":\"Set\"}},\"modifiers\":[]}],\"value\":");
  put_int(count);
  put(",\"min\":0,\"max\":10,\"step\":1,\"event\":{\"id\":\"setCount\"}}},\"modifiers\":[]},"
      "{\"kind\":{\"button\":{\"actionID\":\"increment\",\"role\":null,\"label\":[{\"kind\":{\"text\":{\"_0\":\"+1\"}},\"modifiers\":[]}]}},\"modifiers\":[]}");
  if (count >= 3)
    put(",{\"kind\":{\"text\":{\"_0\":\"Many!\"}},\"modifiers\":[{\"foregroundColor\":{\"_0\":{\"named\":{\"_0\":\"red\"}}}},"
        "{\"onTapGesture\":{\"_0\":{\"id\":\"reset\"}}}]}");
  put("]}},\"modifiers\":[{\"padding\":{\"_0\":{\"top\":16,\"leading\":16,\"bottom\":16,\"trailing\":16}}}]}");
}

__attribute__((export_name("view_body__Counter"))) u64 view_body__Counter(u32 ptr, u32 len) {
  const char *in = (const char *)ptr; used = 0;
  put("{\"root\":"); counter_tree(in, len, read_int(in, len, "count", 0)); put(",\"schemaVersion\":1}");
  return finish();
}

__attribute__((export_name("dispatch__Counter"))) u64 dispatch__Counter(u32 ptr, u32 len) {
  const char *in = (const char *)ptr; used = 0;
  int count = read_int(in, len, "count", 0);
  int id = find_value(in, len, "id");
  if (id >= 0 && starts(in, len, id, "\"increment\"")) count++;
  else if (id >= 0 && starts(in, len, id, "\"reset\"")) count = 0;
  else if (id >= 0 && starts(in, len, id, "\"setCount\"")) count = read_int(in, len, "_0", count);
  put("{\"state\":\"{\\\"count\\\":"); put_int(count); put("}\",\"tree\":");
  counter_tree(in, len, count); put("}");
  return finish();
}

__attribute__((export_name("view_body__Banner"))) u64 view_body__Banner(u32 ptr, u32 len) {
  const char *in = (const char *)ptr; used = 0;
  put("{\"root\":{\"kind\":{\"text\":{\"_0\":\""); put_string_value(in, len, "title", "Hello"); put("\"}},\"modifiers\":[]}}");
  return finish();
}

__attribute__((export_name("view_body__Broken"))) u64 view_body__Broken(u32 ptr, u32 len) {
  (void)ptr; (void)len; used = 0;
  put("{\"root\":{\"kind\":{\"vstack\":{\"alignment\":null,\"spacing\":null,\"children\":["
      "{\"kind\":{\"marquee\":{\"_0\":\"scrolling\"}},\"modifiers\":[]}]}},\"modifiers\":[]}}");
  return finish();
}

__attribute__((export_name("view_body__Hidden"))) u64 view_body__Hidden(u32 ptr, u32 len) {
  return view_body__Banner(ptr, len);
}

static const char *sloppy_tree =
  "{\"kind\":{\"hstack\":{\"alignment\":null,\"spacing\":null,\"children\":["
  "{\"kind\":{\"button\":{\"actionID\":\"array\",\"role\":null,\"label\":[]}},\"modifiers\":[]},"
  "{\"kind\":{\"button\":{\"actionID\":\"tree\",\"role\":null,\"label\":[]}},\"modifiers\":[]}]}},\"modifiers\":[]}";

__attribute__((export_name("view_body__Sloppy"))) u64 view_body__Sloppy(u32 ptr, u32 len) {
  (void)ptr; (void)len; used = 0;
  put("{\"root\":"); put(sloppy_tree); put("}");
  return finish();
}

__attribute__((export_name("dispatch__Sloppy"))) u64 dispatch__Sloppy(u32 ptr, u32 len) {
  const char *in = (const char *)ptr; used = 0;
  int id = find_value(in, len, "id");
  if (id >= 0 && starts(in, len, id, "\"tree\"")) {
    put("{\"state\":\"{}\",\"tree\":{\"kind\":{\"divider\":{}}}}");
  } else {
    put("{\"state\":\"[1,2]\",\"tree\":"); put(sloppy_tree); put("}");
  }
  return finish();
}
