package dev.weft.micronaut.demo;

import io.micronaut.serde.annotation.Serdeable;

/** A stored note, as the JSON API returns it. */
@Serdeable
public record Note(long id, String title, String text) {
}
