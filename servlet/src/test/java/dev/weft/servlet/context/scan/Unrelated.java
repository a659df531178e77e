package dev.weft.servlet.context.scan;

/** Matches nothing. */
public class Unrelated {
}
