package dev.weft.micronaut.demo;

import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.multipart.CompletedFileUpload;
import io.micronaut.serde.annotation.Serdeable;

import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** A file upload ({@code multipart/form-data}, part {@code file}): answers with what arrived. */
@Controller("/api/upload")
public class UploadController {

    @Post(consumes = MediaType.MULTIPART_FORM_DATA)
    public Received upload(CompletedFileUpload file) throws IOException, NoSuchAlgorithmException {
        byte[] bytes = file.getBytes();
        String sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        String type = file.getContentType().map(MediaType::toString).orElse(MediaType.APPLICATION_OCTET_STREAM);
        return new Received(file.getFilename(), type, bytes.length, sha256);
    }

    /** What the server received: the file's name, type, size in bytes and SHA-256 (hex). */
    @Serdeable
    public record Received(String filename, String contentType, long size, String sha256) {
    }
}
