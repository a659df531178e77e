package dev.weft.servlet.context.scan;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.annotation.HandlesTypes;

import java.util.Set;
import java.util.TreeSet;

/** Found by {@code ServiceLoader}; records the classes it is given in a context attribute. */
@HandlesTypes({Marker.class, Routed.class})
public class DiscoveredInitializer implements ServletContainerInitializer {

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext ctx) {
        Set<String> names = new TreeSet<>();
        if (classes != null) {
            classes.forEach(c -> names.add(c.getSimpleName()));
        }
        ctx.setAttribute("discovered", classes == null ? "null" : String.join(",", names));
    }
}
