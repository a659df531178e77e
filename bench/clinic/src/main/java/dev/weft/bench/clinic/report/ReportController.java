package dev.weft.bench.clinic.report;

import dev.weft.bench.report.SalesReport;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/report?size=N}: the CPU-bound JSON endpoint, a {@link SalesReport} of N line items
 * (default {@value SalesReport#DEFAULT_SIZE}) built on each request and serialized by Jackson.
 */
@RestController
class ReportController {

    @GetMapping(path = "/api/report", produces = MediaType.APPLICATION_JSON_VALUE)
    SalesReport.Report report(@RequestParam(defaultValue = "" + SalesReport.DEFAULT_SIZE) int size) {
        return SalesReport.build(size);
    }
}
