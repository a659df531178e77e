package dev.weft.httpserver.cli;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HexFormat;

import static dev.weft.httpserver.cli.DerWriter.OCTET_STRING;
import static dev.weft.httpserver.cli.DerWriter.SET;
import static dev.weft.httpserver.cli.DerWriter.bitString;
import static dev.weft.httpserver.cli.DerWriter.bool;
import static dev.weft.httpserver.cli.DerWriter.integer;
import static dev.weft.httpserver.cli.DerWriter.oid;
import static dev.weft.httpserver.cli.DerWriter.sequence;
import static dev.weft.httpserver.cli.DerWriter.time;
import static dev.weft.httpserver.cli.DerWriter.tlv;
import static dev.weft.httpserver.cli.DerWriter.utf8String;

/**
 * A throw-away certificate for {@code --tls}: an EC P-256 key pair and an X.509 v3 certificate for
 * {@code localhost}, {@code 127.0.0.1} and {@code ::1} signed with its own key (RFC 5280), made in-process with
 * public JDK APIs only. The DER is written here (the JDK has no public certificate builder), then parsed back by
 * {@link CertificateFactory}, which checks it. Immutable.
 */
record SelfSignedCertificate(KeyPair keys, X509Certificate certificate) {

    private static final String ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
    private static final String COMMON_NAME = "2.5.4.3";
    private static final String SUBJECT_ALT_NAME = "2.5.29.17";
    private static final String BASIC_CONSTRAINTS = "2.5.29.19";
    private static final String EXTENDED_KEY_USAGE = "2.5.29.37";
    private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";

    /** A new key pair and certificate valid from an hour ago for {@code days} days. */
    static SelfSignedCertificate generate(int days) throws GeneralSecurityException {
        KeyPairGenerator kpg = KeyPairGenerator.getInstance("EC");
        kpg.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair keys = kpg.generateKeyPair();
        byte[] algorithm = sequence(oid(ECDSA_WITH_SHA256));
        byte[] name = sequence(tlv(SET, sequence(oid(COMMON_NAME), utf8String("localhost"))));
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC).withNano(0);
        byte[] tbs = sequence(
                tlv(0xa0, integer(BigInteger.TWO)), // [0] version: v3
                integer(new BigInteger(63, new SecureRandom()).add(BigInteger.ONE)),
                algorithm,
                name,
                sequence(time(now.minusHours(1)), time(now.plusDays(days))),
                name,
                keys.getPublic().getEncoded(), // SubjectPublicKeyInfo
                tlv(0xa3, sequence( // [3] extensions
                        sequence(oid(SUBJECT_ALT_NAME), tlv(OCTET_STRING, sequence(
                                tlv(0x82, "localhost".getBytes(java.nio.charset.StandardCharsets.US_ASCII)),
                                tlv(0x87, InetAddress.getLoopbackAddress().getAddress()),
                                tlv(0x87, ipv6Loopback())))),
                        sequence(oid(BASIC_CONSTRAINTS), bool(true), tlv(OCTET_STRING, sequence())),
                        sequence(oid(EXTENDED_KEY_USAGE), tlv(OCTET_STRING, sequence(oid(SERVER_AUTH)))))));
        Signature signer = Signature.getInstance("SHA256withECDSA");
        signer.initSign(keys.getPrivate());
        signer.update(tbs);
        byte[] der = sequence(tbs, algorithm, bitString(signer.sign()));
        X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(der));
        cert.verify(keys.getPublic());
        return new SelfSignedCertificate(keys, cert);
    }

    /** A TLS server context presenting this certificate. */
    SSLContext sslContext() throws GeneralSecurityException {
        char[] password = new char[0];
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try {
            ks.load(null, null);
        } catch (java.io.IOException e) {
            throw new GeneralSecurityException(e);
        }
        ks.setKeyEntry("weft", keys.getPrivate(), password, new Certificate[] {certificate});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, password);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        return ctx;
    }

    /** The SHA-256 fingerprint, as colon-separated hex pairs. */
    String fingerprint() throws GeneralSecurityException {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
        return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
    }

    private static byte[] ipv6Loopback() {
        byte[] a = new byte[16];
        a[15] = 1;
        return a;
    }
}
