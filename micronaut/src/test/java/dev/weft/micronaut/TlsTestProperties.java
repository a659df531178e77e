package dev.weft.micronaut;

import dev.weft.httpserver.testing.TestCertificates;

import java.util.HashMap;
import java.util.Map;

/** The SSL properties of a test server: TLS on a random port with the test PKI's {@code localhost} key store. */
final class TlsTestProperties {

    private TlsTestProperties() {
    }

    /**
     * The key store settings under {@code prefix} ({@code micronaut.ssl} or {@code micronaut.server.ssl}), in a
     * map the caller may add to.
     */
    static Map<String, String> keyStore(String prefix) {
        TestCertificates pki = TestCertificates.get();
        Map<String, String> properties = new HashMap<>();
        properties.put(prefix + ".enabled", "true");
        properties.put(prefix + ".port", "-1");
        properties.put(prefix + ".build-self-signed", "false");
        properties.put(prefix + ".key-store.path", "file:" + pki.directory().resolve("server.p12"));
        properties.put(prefix + ".key-store.type", "PKCS12");
        properties.put(prefix + ".key-store.password", TestCertificates.PASSWORD);
        return properties;
    }
}
