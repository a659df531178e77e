package dev.weft.servlet.chain;

import dev.weft.servlet.context.ServletEntry;
import jakarta.servlet.HttpConstraintElement;
import jakarta.servlet.HttpMethodConstraintElement;
import jakarta.servlet.ServletSecurityElement;
import jakarta.servlet.annotation.ServletSecurity.EmptyRoleSemantic;
import jakarta.servlet.annotation.ServletSecurity.TransportGuarantee;
import jakarta.servlet.http.HttpServletRequest;

/**
 * The programmatic security constraint of a servlet ({@code ServletRegistration.Dynamic.setServletSecurity},
 * {@code @ServletSecurity}, Servlet 6.1 §13.4) applied to a client request: the constraint of the request's
 * method, else the servlet's default one. A denied method, a {@code CONFIDENTIAL} guarantee over cleartext, and
 * any required role are refused (403): the container has no realm that could grant roles, so authorization by
 * role belongs to a security filter (Spring Security). Stateless.
 */
public final class SecurityConstraints {

    private SecurityConstraints() {
    }

    /** Whether {@code request} may reach {@code servlet}. */
    public static boolean permits(ServletEntry servlet, HttpServletRequest request) {
        ServletSecurityElement security = servlet == null ? null : servlet.security();
        if (security == null) {
            return true;
        }
        HttpConstraintElement constraint = security;
        for (HttpMethodConstraintElement m : security.getHttpMethodConstraints()) {
            if (m.getMethodName().equals(request.getMethod())) {
                constraint = m;
                break;
            }
        }
        if (constraint.getTransportGuarantee() == TransportGuarantee.CONFIDENTIAL && !request.isSecure()) {
            return false;
        }
        if (constraint.getRolesAllowed().length > 0) {
            return false;
        }
        return constraint.getEmptyRoleSemantic() == EmptyRoleSemantic.PERMIT;
    }
}
