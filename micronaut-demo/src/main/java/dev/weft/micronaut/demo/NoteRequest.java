package dev.weft.micronaut.demo;

import io.micronaut.serde.annotation.Serdeable;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** The body of {@code POST /api/notes}; a blank title or an over-long text is answered with 400. */
@Serdeable
public record NoteRequest(@NotBlank @Size(max = 80) String title, @Size(max = 2000) String text) {
}
