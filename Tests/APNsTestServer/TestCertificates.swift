/// The mock APNs's TLS identity: a test-only CA and a server certificate it signed for localhost,
/// 127.0.0.1 and ::1 (EC P-256). Generated once with openssl (commands below), valid for 100 years
/// (until 2126) so the tests never see them expire. They protect nothing: the private keys are here.
///
///     openssl ecparam -name prime256v1 -genkey -noout -out ca.key
///     openssl req -x509 -new -key ca.key -sha256 -days 36500 -subj "/CN=patchcli test APNs CA" \
///         -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" -out ca.pem
///     openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out server.key
///     openssl req -new -key server.key -subj "/CN=localhost" -out server.csr
///     openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 36500 -sha256 -out server.pem \
///         -extfile <(printf "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\n")
public enum TestCertificates {
    public static let caPEM = """
        -----BEGIN CERTIFICATE-----
        MIIBpjCCAU2gAwIBAgIUPzL+6NLnHWnDPDLc+ZZgEgj8fF4wCgYIKoZIzj0EAwIw
        IDEeMBwGA1UEAwwVcGF0Y2hjbGkgdGVzdCBBUE5zIENBMCAXDTI2MTEyNzExMzA1
        NVoYDzIxMjYxMTAzMTEzMDU1WjAgMR4wHAYDVQQDDBVwYXRjaGNsaSB0ZXN0IEFQ
        TnMgQ0EwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAASIjmgkJizS/b0hk9uz0MXt
        WnHk9/+MBvNOkTLK32DD4kNUEzM+OoaUrA2QT//Ilkcoe/njg7n0Xf0nT/SHNym+
        o2MwYTAdBgNVHQ4EFgQU4uW6GJJO729jRQsmj20ob4De+hAwHwYDVR0jBBgwFoAU
        4uW6GJJO729jRQsmj20ob4De+hAwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8E
        BAMCAQYwCgYIKoZIzj0EAwIDRwAwRAIgWBGiVIwch22iJUSTVYUq4TLzCFkYcRCu
        oQqGHmRWTIUCIEASVGFdlzISnqYBfY2CsBiyWOuohe3SGkFmSOR4dg9k
        -----END CERTIFICATE-----
        """

    static let serverPEM = """
        -----BEGIN CERTIFICATE-----
        MIIB3DCCAYOgAwIBAgIUYVZnjcj+iWJnCqFRUvwenw0OfEMwCgYIKoZIzj0EAwIw
        IDEeMBwGA1UEAwwVcGF0Y2hjbGkgdGVzdCBBUE5zIENBMCAXDTI2MTEyNzExMzA1
        NVoYDzIxMjYxMTAzMTEzMDU1WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcq
        hkjOPQIBBggqhkjOPQMBBwNCAAR4QakR8CmXQw3OTKgmwQz5UsZT0AaaT44sgeSG
        j7LeFh+mizMFAwL6Ffl398nd2hpqc277IxqA0/am5mOEpxmvo4GkMIGhMAwGA1Ud
        EwEB/wQCMAAwDgYDVR0PAQH/BAQDAgeAMBMGA1UdJQQMMAoGCCsGAQUFBwMBMCwG
        A1UdEQQlMCOCCWxvY2FsaG9zdIcEfwAAAYcQAAAAAAAAAAAAAAAAAAAAATAdBgNV
        HQ4EFgQUvQVdPkVGs89zuEQ8tFwtZ1BOe7gwHwYDVR0jBBgwFoAU4uW6GJJO729j
        RQsmj20ob4De+hAwCgYIKoZIzj0EAwIDRwAwRAIgQg3FwViuwpm8yjluvJ6RCQ7u
        FgDeMmABKPFaWDKpUPsCIGQiPE/I2SavW+CiuGSV6qWhmhB4SDPDUSMi1mprGL68
        -----END CERTIFICATE-----
        """

    static let serverKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgKskoKnTnEv6favR2
        nNt3FCn7suec5QyHghZM1e6N6J6hRANCAAR4QakR8CmXQw3OTKgmwQz5UsZT0Aaa
        T44sgeSGj7LeFh+mizMFAwL6Ffl398nd2hpqc277IxqA0/am5mOEpxmv
        -----END PRIVATE KEY-----
        """
}
