package dev.weft.micronaut.app;

import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.server.types.files.StreamedFile;
import io.micronaut.http.server.types.files.SystemFile;

/** File responses: {@code SystemFile}s (one as an attachment) and {@code StreamedFile}s, with and without a length. */
@Controller("/files")
public class FilesController {

    private final SampleFiles files;

    public FilesController(SampleFiles files) {
        this.files = files;
    }

    /** A file from disk offered for download as {@code monthly.csv}. */
    @Get("/report")
    public SystemFile report() {
        return new SystemFile(files.report().toFile()).attach("monthly.csv");
    }

    /** A file from disk of several MiB, shown inline; its type from its name ({@code big.bin}). */
    @Get("/big")
    public SystemFile big() {
        return new SystemFile(files.big().toFile());
    }

    /** Bytes made as they are sent: no length known beforehand, offered for download. */
    @Get("/generated")
    public StreamedFile generated() {
        return new StreamedFile(SampleFiles.generated(), MediaType.APPLICATION_OCTET_STREAM_TYPE)
                .attach("generated.bin");
    }

    /** A class path resource as a {@code StreamedFile} (its length and modification time from the URL). */
    @Get("/classpath")
    public StreamedFile classpath() {
        return new StreamedFile(FilesController.class.getResource("/public/hello.txt"));
    }
}
