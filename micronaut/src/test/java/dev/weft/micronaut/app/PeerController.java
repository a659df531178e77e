package dev.weft.micronaut.app;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;

import java.security.cert.X509Certificate;

/** Who the TLS client is: the subject of the certificate it presented, if any. */
@Controller(value = "/tls", produces = MediaType.TEXT_PLAIN)
public class PeerController {

    @Get("/peer")
    public String peer(HttpRequest<?> request) {
        return request.getCertificate()
                .map(certificate -> ((X509Certificate) certificate).getSubjectX500Principal().getName())
                .orElse("anonymous");
    }
}
