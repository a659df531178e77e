package dev.weft.servlet.request;

import dev.weft.httpserver.forms.FormException;
import dev.weft.httpserver.forms.FormFields;
import dev.weft.httpserver.forms.FormLimits;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.util.List;

/**
 * {@code application/x-www-form-urlencoded} data in the request's charset (Servlet 6.1 §3.12), through the
 * engine's strict {@link FormFields} parser: malformed data fails with a {@link FormException} of {@code 400},
 * data over a {@link FormLimits} limit with {@code 413}, a charset that does not encode ASCII as ASCII with
 * {@code 415}. Stateless.
 */
final class FormDecoder {

    private FormDecoder() {
    }

    /** The pairs of a body read to its end from {@code in}. */
    static List<FormFields.Field> read(InputStream in, Charset charset, FormLimits limits) throws IOException {
        return FormFields.readForm(in, charset, limits).asList();
    }

    /** The pairs of a query string, which is always UTF-8. */
    static List<FormFields.Field> query(String rawQuery, FormLimits limits) throws FormException {
        return FormFields.parseQuery(rawQuery, limits).asList();
    }
}
