package dev.weft.servlet.response;

/** Text put into the HTML pages the container writes itself (redirect notes, error pages), escaped. */
public final class HtmlText {

    private HtmlText() {
    }

    /** {@code s} with {@code < > & " '} as character references. */
    public static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
