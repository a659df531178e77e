package dev.weft.servlet.chain;

import dev.weft.servlet.testing.Http;
import dev.weft.servlet.testing.ServletServer;
import jakarta.servlet.HttpConstraintElement;
import jakarta.servlet.HttpMethodConstraintElement;
import jakarta.servlet.ServletSecurityElement;
import jakarta.servlet.annotation.ServletSecurity.EmptyRoleSemantic;
import jakarta.servlet.annotation.ServletSecurity.TransportGuarantee;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A servlet's programmatic security constraint is enforced on client requests. */
class SecurityConstraintsTest {

    private static HttpServlet ok() {
        return new HttpServlet() {
            @Override
            protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.getWriter().print("ok");
            }
        };
    }

    @Test
    void deniedMethodsConfidentialTransportAndRolesAreRefusedWith403() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b.initializer((classes, ctx) -> {
            ctx.addServlet("open", ok()).addMapping("/open");
            ctx.addServlet("readonly", ok()).addMapping("/readonly");
            ctx.getServletRegistration("readonly");
            ((jakarta.servlet.ServletRegistration.Dynamic) ctx.getServletRegistration("readonly")).setServletSecurity(
                    new ServletSecurityElement(new HttpConstraintElement(),
                            List.of(new HttpMethodConstraintElement("DELETE",
                                    new HttpConstraintElement(EmptyRoleSemantic.DENY)))));
            var tls = ctx.addServlet("tls", ok());
            tls.addMapping("/tls");
            tls.setServletSecurity(new ServletSecurityElement(new HttpConstraintElement(TransportGuarantee.CONFIDENTIAL)));
            var admin = ctx.addServlet("admin", ok());
            admin.addMapping("/admin");
            admin.setServletSecurity(new ServletSecurityElement(new HttpConstraintElement(TransportGuarantee.NONE,
                    "admin")));
        }))) {
            assertEquals("ok", Http.get(s.uri("/open")).body());
            assertEquals("ok", Http.get(s.uri("/readonly")).body());
            assertEquals(403, Http.send(Http.request(s.uri("/readonly")).DELETE().build()).statusCode());
            assertEquals(403, Http.get(s.uri("/tls")).statusCode());
            assertEquals(403, Http.get(s.uri("/admin")).statusCode());
        }
    }
}
