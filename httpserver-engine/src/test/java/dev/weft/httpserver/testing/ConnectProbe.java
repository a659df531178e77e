package dev.weft.httpserver.testing;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * One connection attempt to a local port, for tests that await a listener's closing with
 * {@code Await.until("...", () -> ConnectProbe.refused(port))}: closing a listener whose accept is blocked
 * takes effect a moment later, and until then a connection may still be accepted.
 */
public final class ConnectProbe {

    private ConnectProbe() {
    }

    /**
     * Whether a connection to {@code 127.0.0.1:port} is refused now; false if it was accepted (it is closed at
     * once) or failed otherwise.
     */
    public static boolean refused(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return false;
        } catch (ConnectException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
