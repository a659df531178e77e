package dev.weft.servlet.context;

import dev.weft.servlet.ServletContainer;
import dev.weft.servlet.ServletContainerConfig;
import dev.weft.servlet.context.scan.DiscoveredInitializer;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** {@code ServletContainerInitializer}s found with {@code ServiceLoader} and their {@code @HandlesTypes} classes. */
class InitializerDiscoveryTest {

    @Test
    void aDiscoveredInitializerGetsTheSubtypesAndAnnotatedClassesOfTheScannedPackages() {
        ServletContainer c = ServletContainer.create(ServletContainerConfig.builder()
                .discoverInitializers(true)
                .scanPackages("dev.weft.servlet.context.scan")
                .build());
        try {
            assertEquals("Annotated,Implementation", c.servletContext().getAttribute("discovered"));
        } finally {
            c.destroy();
        }
    }

    @Test
    void withoutMatchesTheInitializerIsCalledWithNull() {
        ServletContainer c = ServletContainer.create(ServletContainerConfig.builder()
                .initializer(new DiscoveredInitializer())
                .scanPackages("dev.weft.servlet.mapping")
                .build());
        try {
            assertEquals("null", c.servletContext().getAttribute("discovered"));
        } finally {
            c.destroy();
        }
    }

    @Test
    void explicitClassesAreGivenAsTheyAre() {
        ServletContainer c = ServletContainer.create(ServletContainerConfig.builder()
                .initializer(new DiscoveredInitializer(), Set.of(String.class))
                .build());
        try {
            assertEquals("String", c.servletContext().getAttribute("discovered"));
        } finally {
            c.destroy();
        }
    }

    @Test
    void discoveryIsOffByDefault() {
        ServletContainer c = ServletContainer.create(ServletContainerConfig.builder().build());
        try {
            assertNull(c.servletContext().getAttribute("discovered"));
        } finally {
            c.destroy();
        }
    }
}
