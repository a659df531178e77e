package dev.weft.bench.clinic.system;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /plaintext}: a fixed text, the sanity check every benchmark harness here starts with. */
@RestController
class PlaintextController {

    private static final String BODY = "Hello, World!";

    @GetMapping(path = "/plaintext", produces = MediaType.TEXT_PLAIN_VALUE)
    String plaintext() {
        return BODY;
    }
}
