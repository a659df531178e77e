package dev.weft.micronaut.app;

import io.micronaut.serde.annotation.Serdeable;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;

/** A JSON body the sample application reads and writes. */
@Serdeable
public record Greeting(@NotBlank String name, @Min(0) int count) {
}
