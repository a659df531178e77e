package dev.weft.bench.spring;

import dev.weft.bench.report.SalesReport;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * {@code GET /api/report?size=N}: the CPU-bound JSON endpoint, the same as the clinic app's
 * ({@code bench/clinic}): a {@link SalesReport} of N line items (default {@value SalesReport#DEFAULT_SIZE})
 * built on each request and serialized by Jackson. The report is built when the response subscribes, on
 * the server's request thread, as a WebFlux application that does its work inline would.
 */
@RestController
class ReportController {

    @GetMapping(path = "/api/report", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<SalesReport.Report> report(@RequestParam(defaultValue = "" + SalesReport.DEFAULT_SIZE) int size) {
        return Mono.fromSupplier(() -> SalesReport.build(size));
    }
}
