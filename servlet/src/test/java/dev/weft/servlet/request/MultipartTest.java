package dev.weft.servlet.request;

import dev.weft.servlet.testing.Curl;
import dev.weft.servlet.testing.ServletServer;
import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.Part;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code multipart/form-data} through {@code getParts()} under a servlet's {@link MultipartConfigElement}. */
class MultipartTest {

    private static ServletServer server;
    private static Path tempDir;
    private static final AtomicReference<Path> lastPartFile = new AtomicReference<>();

    @BeforeAll
    static void start() throws IOException {
        tempDir = Files.createTempDirectory("multipart-test");
        server = ServletServer.start(b -> b.tempDir(tempDir).requestCharacterEncoding(java.nio.charset.StandardCharsets.UTF_8)
                .initializer((classes, ctx) -> {
            var upload = ctx.addServlet("upload", new HttpServlet() {
                @Override
                protected void doPost(HttpServletRequest req, HttpServletResponse resp)
                        throws IOException, ServletException {
                    resp.setContentType("text/plain;charset=UTF-8");
                    PrintWriter w = resp.getWriter();
                    w.println("param.title=" + req.getParameter("title"));
                    for (Part p : req.getParts()) {
                        w.println("part." + p.getName() + "=" + p.getSize() + "|" + p.getSubmittedFileName() + "|"
                                + p.getContentType());
                        try (Stream<Path> files = Files.list(tempDir)) {
                            files.filter(f -> f.getFileName().toString().startsWith("weft-upload-"))
                                    .findFirst().ifPresent(lastPartFile::set);
                        }
                    }
                    Part file = req.getPart("file");
                    if (file != null) {
                        w.println("file.first=" + (char) file.getInputStream().read());
                    }
                }
            });
            upload.addMapping("/upload");
            upload.setMultipartConfig(new MultipartConfigElement("", 2000, 6000, 100));
            ctx.addServlet("plain", new HttpServlet() {
                @Override
                protected void doPost(HttpServletRequest req, HttpServletResponse resp)
                        throws IOException, ServletException {
                    try {
                        req.getParts();
                        resp.getWriter().print("parts");
                    } catch (IllegalStateException e) {
                        resp.getWriter().print("no multipart config");
                    }
                }
            }).addMapping("/plain");
        }));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String url(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    @Test
    void fieldsAreParametersAndPartsAndLargePartsGoToTemporaryFilesRemovedAfterTheRequest() throws Exception {
        Path file = Files.createTempFile("upload", ".bin");
        Files.write(file, "A".repeat(1500).getBytes());
        Curl c = Curl.ok("-F", "title=Zürich", "-F", "file=@" + file + ";type=application/x-test", url("/upload"));
        assertTrue(c.out().contains("param.title=Zürich"), c.out());
        assertTrue(c.out().contains("part.title=7|null|null"), c.out());
        assertTrue(c.out().contains("part.file=1500|" + file.getFileName() + "|application/x-test"), c.out());
        assertTrue(c.out().contains("file.first=A"), c.out());
        assertTrue(lastPartFile.get() != null, "the 1500-byte part went to a temporary file");
        assertFalse(Files.exists(lastPartFile.get()), "the temporary file is gone once the request ended");
    }

    @Test
    void aPartOverMaxFileSizeIsA413AndLeavesNoFileBehind() throws Exception {
        Path file = Files.createTempFile("upload", ".bin");
        Files.write(file, new byte[2500]);
        Curl c = Curl.ok("-o", "/dev/null", "-w", "%{http_code}", "-F", "file=@" + file, url("/upload"));
        assertEquals("413", c.out());
        try (Stream<Path> left = Files.list(tempDir)) {
            assertEquals(0, left.filter(f -> f.getFileName().toString().startsWith("weft-upload-")).count());
        }
    }

    @Test
    void aRequestOverMaxRequestSizeIsA413() throws Exception {
        Curl c = Curl.ok("-o", "/dev/null", "-w", "%{http_code}", "-F", "a=" + "x".repeat(1900), "-F",
                "b=" + "x".repeat(1900), "-F", "c=" + "x".repeat(1900), "-F", "d=" + "x".repeat(1900), url("/upload"));
        assertEquals("413", c.out());
    }

    @Test
    void aMalformedMultipartBodyIsA400() throws Exception {
        Curl c = Curl.ok("-o", "/dev/null", "-w", "%{http_code}", "-H",
                "Content-Type: multipart/form-data; boundary=xyz", "--data-binary", "--xyz\r\nno headers here",
                url("/upload"));
        assertEquals("400", c.out());
    }

    @Test
    void withoutMultipartConfigGetPartsIsIllegal() throws Exception {
        Curl c = Curl.ok("-F", "a=1", url("/plain"));
        assertEquals("no multipart config", c.out());
    }
}
