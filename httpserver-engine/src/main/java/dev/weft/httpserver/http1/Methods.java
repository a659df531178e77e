package dev.weft.httpserver.http1;

/** Request methods as shared String instances, so the common ones cost no allocation per request. */
final class Methods {

    private static final String[] KNOWN = {"GET", "POST", "PUT", "HEAD", "DELETE", "OPTIONS", "PATCH",
            "CONNECT", "TRACE"};

    private Methods() {
    }

    static String of(byte[] b, int from, int to) {
        int len = to - from;
        outer:
        for (String m : KNOWN) {
            if (m.length() != len) {
                continue;
            }
            for (int i = 0; i < len; i++) {
                if (b[from + i] != m.charAt(i)) {
                    continue outer;
                }
            }
            return m;
        }
        return new String(b, from, len, java.nio.charset.StandardCharsets.US_ASCII);
    }
}
