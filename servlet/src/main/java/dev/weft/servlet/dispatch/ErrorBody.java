package dev.weft.servlet.dispatch;

import dev.weft.servlet.response.HtmlText;
import dev.weft.servlet.response.WeftResponse;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/**
 * The container's own error response when no error page applies: a short HTML page with the status and its
 * reason, the {@code sendError} message when there is one, and the stack trace only when the container is
 * configured to show it. Every piece of text is HTML-escaped. Stateless.
 */
final class ErrorBody {

    private ErrorBody() {
    }

    static void write(WeftResponse response, int status, String message, Throwable t, boolean showStackTrace)
            throws IOException {
        response.beginErrorPage();
        response.setContentType("text/html;charset=utf-8");
        StringBuilder b = new StringBuilder(256);
        String title = status + " " + Reasons.phrase(status);
        b.append("<!doctype html>\n<html><head><title>").append(HtmlText.escape(title)).append("</title></head><body>\n<h1>")
                .append(HtmlText.escape(title)).append("</h1>\n");
        if (message != null && !message.isEmpty()) {
            b.append("<p>").append(HtmlText.escape(message)).append("</p>\n");
        }
        if (showStackTrace && t != null) {
            StringWriter trace = new StringWriter();
            t.printStackTrace(new PrintWriter(trace));
            b.append("<pre>").append(HtmlText.escape(trace.toString())).append("</pre>\n");
        }
        b.append("</body></html>\n");
        byte[] body = b.toString().getBytes(StandardCharsets.UTF_8);
        response.output().write(body, 0, body.length);
    }
}
