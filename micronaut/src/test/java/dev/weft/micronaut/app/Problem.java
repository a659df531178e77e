package dev.weft.micronaut.app;

import io.micronaut.serde.annotation.Serdeable;

/** The JSON body the sample's own error handlers answer with (fields in a fixed order, unlike a map's). */
@Serdeable
public record Problem(String error, String detail) {
}
