package dev.weft.servlet.context.scan;

/** Carries {@link Routed} on a method. */
public class Annotated {

    @Routed
    public void handle() {
    }
}
