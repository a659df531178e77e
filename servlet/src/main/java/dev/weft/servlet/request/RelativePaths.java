package dev.weft.servlet.request;

import java.util.ArrayList;
import java.util.List;

/**
 * Resolves a dispatcher path relative to the current request's path (Servlet 6.1 §9.1: {@code header.html}
 * from {@code /garden/tools.html} is {@code /garden/header.html}), removing {@code .} and {@code ..} segments;
 * a query string is kept as it is. Stateless.
 */
public final class RelativePaths {

    private RelativePaths() {
    }

    /**
     * @param base the directory part of the current path, ending with {@code /}
     * @return the context-relative path, or null when {@code ..} climbs above the root
     */
    public static String resolve(String base, String relative) {
        int q = relative.indexOf('?');
        String path = q < 0 ? relative : relative.substring(0, q);
        String query = q < 0 ? "" : relative.substring(q);
        List<String> out = new ArrayList<>();
        String[] segments = (base + path).split("/", -1);
        for (int i = 1; i < segments.length; i++) {
            String s = segments[i];
            boolean last = i == segments.length - 1;
            if (s.equals(".")) {
                if (last) {
                    out.add("");
                }
            } else if (s.equals("..")) {
                if (out.isEmpty()) {
                    return null;
                }
                out.remove(out.size() - 1);
                if (last) {
                    out.add("");
                }
            } else if (!s.isEmpty() || last) {
                out.add(s);
            }
        }
        return "/" + String.join("/", out) + query;
    }
}
