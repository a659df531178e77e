package dev.weft.httpserver.cli;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * The few DER encodings (ITU-T X.690) an X.509 certificate needs: each method returns one complete
 * tag-length-value. Stateless.
 */
final class DerWriter {

    static final int SEQUENCE = 0x30;
    static final int SET = 0x31;
    static final int OCTET_STRING = 0x04;

    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'");
    private static final DateTimeFormatter GENERALIZED_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'");

    private DerWriter() {
    }

    /** A value with tag {@code tag} and the concatenated {@code contents}. */
    static byte[] tlv(int tag, byte[]... contents) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (byte[] c : contents) {
            body.writeBytes(c);
        }
        int n = body.size();
        ByteArrayOutputStream out = new ByteArrayOutputStream(n + 6);
        out.write(tag);
        if (n < 0x80) {
            out.write(n);
        } else {
            int bytes = n < 0x100 ? 1 : n < 0x10000 ? 2 : 3;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(n >>> (8 * i));
            }
        }
        out.writeBytes(body.toByteArray());
        return out.toByteArray();
    }

    static byte[] sequence(byte[]... contents) {
        return tlv(SEQUENCE, contents);
    }

    static byte[] integer(BigInteger value) {
        return tlv(0x02, value.toByteArray());
    }

    static byte[] bool(boolean value) {
        return tlv(0x01, new byte[] {(byte) (value ? 0xff : 0)});
    }

    /** A BIT STRING of whole bytes (no unused bits). */
    static byte[] bitString(byte[] bits) {
        byte[] content = new byte[bits.length + 1];
        System.arraycopy(bits, 0, content, 1, bits.length);
        return tlv(0x03, content);
    }

    static byte[] utf8String(String s) {
        return tlv(0x0c, s.getBytes(StandardCharsets.UTF_8));
    }

    /** UTCTime through 2049, GeneralizedTime after (RFC 5280 §4.1.2.5). */
    static byte[] time(ZonedDateTime t) {
        ZonedDateTime utc = t.withZoneSameInstant(ZoneOffset.UTC);
        return utc.getYear() < 2050
                ? tlv(0x17, UTC_TIME.format(utc).getBytes(StandardCharsets.US_ASCII))
                : tlv(0x18, GENERALIZED_TIME.format(utc).getBytes(StandardCharsets.US_ASCII));
    }

    /** An OBJECT IDENTIFIER from its dotted form. */
    static byte[] oid(String dotted) {
        String[] arcs = dotted.split("\\.");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        base128(out, Long.parseLong(arcs[0]) * 40 + Long.parseLong(arcs[1]));
        for (int i = 2; i < arcs.length; i++) {
            base128(out, Long.parseLong(arcs[i]));
        }
        return tlv(0x06, out.toByteArray());
    }

    private static void base128(ByteArrayOutputStream out, long v) {
        int groups = 1;
        while ((v >>> (7 * groups)) != 0) {
            groups++;
        }
        for (int g = groups - 1; g >= 0; g--) {
            int b = (int) (v >>> (7 * g)) & 0x7f;
            out.write(g == 0 ? b : b | 0x80);
        }
    }
}
