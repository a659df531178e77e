package dev.weft.httpserver.files;

/**
 * Entity-tag lists as {@code If-Match} and {@code If-None-Match} carry them (RFC 9110 §8.8.3): {@code *} or a
 * comma-separated list of {@code "opaque"} and {@code W/"opaque"} tags, compared strongly or weakly (§8.8.3.2).
 * Stateless.
 */
final class EntityTags {

    private EntityTags() {
    }

    /**
     * Whether the field value {@code list} matches the current strong tag {@code current} (quotes included).
     * {@code *} matches any existing representation. A malformed list matches nothing.
     *
     * @param strong strong comparison (both tags strong and equal) rather than weak (opaque parts equal)
     */
    static boolean anyMatches(String list, String current, boolean strong) {
        String v = list.strip();
        if (v.equals("*")) {
            return true;
        }
        int i = 0;
        int n = v.length();
        boolean matched = false;
        while (i < n) {
            char c = v.charAt(i);
            if (c == ' ' || c == '\t' || c == ',') {
                i++;
                continue;
            }
            boolean weak = false;
            if (c == 'W' && i + 1 < n && v.charAt(i + 1) == '/') {
                weak = true;
                i += 2;
            }
            if (i >= n || v.charAt(i) != '"') {
                return false;
            }
            int end = i + 1;
            while (end < n && v.charAt(end) != '"') {
                char e = v.charAt(end);
                // etagc = %x21 / %x23-7E / obs-text
                if (e < 0x21 || e == 0x7f) {
                    return false;
                }
                end++;
            }
            if (end >= n) {
                return false;
            }
            String tag = v.substring(i, end + 1);
            if (tag.equals(current) && !(strong && weak)) {
                matched = true;
            }
            i = end + 1;
            // after a tag: OWS then a comma or the end
            while (i < n && (v.charAt(i) == ' ' || v.charAt(i) == '\t')) {
                i++;
            }
            if (i < n && v.charAt(i) != ',') {
                return false;
            }
        }
        return matched;
    }
}
