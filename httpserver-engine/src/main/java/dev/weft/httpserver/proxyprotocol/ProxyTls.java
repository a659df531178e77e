package dev.weft.httpserver.proxyprotocol;

/**
 * The client's TLS connection to the proxy, from a v2 {@code PP2_TYPE_SSL} field and its sub-fields.
 * Immutable.
 *
 * @param clientSsl     the client connected over TLS ({@code PP2_CLIENT_SSL})
 * @param clientCert    the client presented a certificate on this connection or its session
 *                      ({@code PP2_CLIENT_CERT_CONN}, {@code PP2_CLIENT_CERT_SESS})
 * @param verified      the proxy verified that certificate ({@code verify} is 0)
 * @param version       the TLS version, e.g. {@code TLSv1.3} ({@code PP2_SUBTYPE_SSL_VERSION}), or {@code null}
 * @param cipher        the cipher, e.g. {@code TLS_AES_256_GCM_SHA384} ({@code PP2_SUBTYPE_SSL_CIPHER}), or
 *                      {@code null}
 * @param commonName    the client certificate's subject common name ({@code PP2_SUBTYPE_SSL_CN}), or {@code null}
 * @param signatureAlgorithm the certificate's signature algorithm ({@code PP2_SUBTYPE_SSL_SIG_ALG}), or
 *                      {@code null}
 * @param keyAlgorithm  the certificate's key algorithm ({@code PP2_SUBTYPE_SSL_KEY_ALG}), or {@code null}
 */
public record ProxyTls(boolean clientSsl, boolean clientCert, boolean verified, String version, String cipher,
                       String commonName, String signatureAlgorithm, String keyAlgorithm) {
}
