package dev.weft.servlet.mapping;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every row of the specification's "Example URIs" table (Servlet 6.1 §3.5.2): the decoded path, or a 400
 * (a {@link SuspiciousPathException}). Columns: encoded target | decoded path | rejection reason (empty: accepted).
 */
class PathCanonicalizerTest {

    private static final String TABLE = """
            foo/bar | /foo/bar | 400 must start with /
            /foo/bar | /foo/bar |
            /foo/bar;jsessionid=1234 | /foo/bar |
            /foo/bar/ | /foo/bar/ |
            /foo/bar/;jsessionid=1234 | /foo/bar/ |
            /foo;/bar; | /foo/bar |
            /foo;/bar;/; | /foo/bar/ |
            /foo%00/bar/ | /foo<NUL>/bar/ | 400 control character
            /foo%7Fbar | /foo<DEL>bar | 400 control character
            /foo%2Fbar | /foo%2Fbar | 400 encoded /
            /foo%2Fb%25r | /foo%2Fb%25r | 400 encoded /
            /foo/b%25r | /foo/b%r |
            /foo\\bar | /foo\\bar | 400 backslash character
            /foo%5Cbar | /foo\\bar | 400 backslash character
            /foo;%2F/bar | /foo/bar | 400 encoded /
            /foo/./bar | /foo/bar |
            /foo/././bar | /foo/bar |
            /./foo/bar | /foo/bar |
            /foo/%2e/bar | /foo/bar | 400 encoded dot segment
            /foo/.;/bar | /foo/bar | 400 dot segment with parameter
            /foo/%2e;/bar | /foo/bar | 400 encoded dot segment
            /foo/.%2Fbar | /foo/.%2Fbar | 400 encoded /
            /foo/.%5Cbar | /foo/.\\bar | 400 backslash character
            /foo/bar/. | /foo/bar |
            /foo/bar/./ | /foo/bar/ |
            /foo/bar/.; | /foo/bar | 400 dot segment with parameter
            /foo/bar/./; | /foo/bar/ |
            /foo/.bar | /foo/.bar |
            /foo/../bar | /bar |
            /foo/../../bar | /../bar | 400 leading dot-dot-segment
            /../foo/bar | /../foo/bar | 400 leading dot-dot-segment
            /foo/%2e%2E/bar | /bar | 400 encoded dot segment
            /foo/%2e%2e/%2E%2E/bar | /../bar | 400 leading dot-dot-segment & encoded dot segment
            /foo/./../bar | /bar |
            /foo/..;/bar | /bar | 400 dot segment with parameter
            /foo/%2e%2E;/bar | /bar | 400 encoded dot segment
            /foo/..%2Fbar | /foo/..%2Fbar | 400 encoded /
            /foo/..%5Cbar | /foo/..\\bar | 400 backslash character
            /foo/bar/.. | /foo |
            /foo/bar/../ | /foo/ |
            /foo/bar/..; | /foo | 400 dot segment with parameter
            /foo/bar/../; | /foo/ |
            /foo/..bar | /foo/..bar |
            /foo/.../bar | /foo/.../bar |
            /foo//bar | /foo/bar |
            //foo//bar// | /foo/bar/ |
            /;/foo;/;/bar/;/; | /foo/bar/ | 400 empty segment with parameters
            /foo//../bar | /bar |
            /foo/;/../bar | /bar | 400 empty segment with parameters
            /foo%E2%82%ACbar | /foo€bar |
            /foo%20bar | /foo bar |
            /foo%E2%82 | /foo%E2%82 | 400 decode error
            /foo%E2%82bar | /foo%E2%82bar | 400 decode error
            /foo%-1/bar | /foo%-1/bar | 400 decode error
            /foo%XX/bar | /foo%XX/bar | 400 decode error
            /foo%/bar | /foo%/bar | 400 decode error
            /foo/bar%0 | /foo/bar%0 | 400 decode error
            /good%20/bad%/%20mix% | /good /bad%/%20mix% | 400 decode error
            /foo/bar?q | /foo/bar |
            /foo/bar#f | /foo/bar | 400 fragment
            /foo/bar?q#f | /foo/bar | 400 fragment
            /foo/bar/?q | /foo/bar/ |
            /foo/bar/#f | /foo/bar/ | 400 fragment
            /foo/bar/?q#f | /foo/bar/ | 400 fragment
            /foo/bar;?q | /foo/bar |
            /foo/bar;#f | /foo/bar | 400 fragment
            /foo/bar;?q#f | /foo/bar | 400 fragment
            / | / |
            // | / |
            /;/ | / | 400 empty segment with parameters
            /. | / |
            /.. | /.. | 400 leading dot-dot-segment
            /./ | / |
            /../ | /../ | 400 leading dot-dot-segment
            foo/bar/ | /foo/bar/ | 400 must start with /
            ./foo/bar/ | /foo/bar/ | 400 must start with /
            %2e/foo/bar/ | /foo/bar/ | 400 must start with / & encoded dot segment
            ../foo/bar/ | /../foo/bar/ | 400 must start with / & leading dot-dot-segment
            .%2e/foo/bar/ | /../foo/bar/ | 400 must start with / & leading dot-dot-segment & encoded dot segment
            ;/foo/bar/ | /foo/bar/ | 400 must start with / & empty segment with parameters
            /#f | / | 400 fragment
            #f | / | 400 fragment & must start with /
            /?q | / |
            ?q | / | 400 must start with /
            """;

    @Test
    void everyExampleOfTheSpecificationIsDecodedOrRejectedAsItSays() {
        List<String> failures = new ArrayList<>();
        for (String line : TABLE.strip().split("\n")) {
            String[] cols = line.split("\\|", -1);
            String target = cols[0].strip();
            String expected = cols[1].strip();
            boolean rejected = cols.length > 2 && !cols[2].isBlank();
            String path = withoutQuery(target);
            try {
                String decoded = PathCanonicalizer.canonicalize(path);
                if (rejected) {
                    failures.add(target + " should be rejected (" + cols[2].strip() + ") but gave " + decoded);
                } else if (!decoded.equals(expected)) {
                    failures.add(target + " gave " + decoded + ", expected " + expected);
                }
            } catch (SuspiciousPathException e) {
                if (!rejected) {
                    failures.add(target + " was rejected (" + e.getMessage() + "), expected " + expected);
                }
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
    }

    @Test
    void theTableIsComplete() {
        assertEquals(84, TABLE.strip().split("\n").length);
    }

    @Test
    void controlCharactersAboveAsciiAreRejectedToo() {
        assertThrows(SuspiciousPathException.class, () -> PathCanonicalizer.canonicalize("/a%C2%85b"));
    }

    @Test
    void encodedSlashInPathParametersIsRejected() {
        assertThrows(SuspiciousPathException.class, () -> PathCanonicalizer.canonicalize("/a;x=%2f/b"));
    }

    /** The container gets the path without the query (the engine splits it); a fragment stays to be rejected. */
    private static String withoutQuery(String target) {
        int q = target.indexOf('?');
        if (q < 0) {
            return target;
        }
        int hash = target.indexOf('#', q);
        return target.substring(0, q) + (hash >= 0 ? target.substring(hash) : "");
    }
}
