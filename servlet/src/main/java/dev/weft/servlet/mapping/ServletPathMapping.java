package dev.weft.servlet.mapping;

import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.MappingMatch;

/**
 * The {@link HttpServletMapping} of one match, as {@code HttpServletRequest.getHttpServletMapping()} and the
 * {@code *.mapping} dispatch attributes give it. Immutable.
 */
public record ServletPathMapping(String matchValue, String pattern, String servletName, MappingMatch mappingMatch)
        implements HttpServletMapping {

    @Override
    public String getMatchValue() {
        return matchValue;
    }

    @Override
    public String getPattern() {
        return pattern;
    }

    @Override
    public String getServletName() {
        return servletName;
    }

    @Override
    public MappingMatch getMappingMatch() {
        return mappingMatch;
    }
}
