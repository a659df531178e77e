package dev.weft.mvcdemo;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Principal;
import java.util.HexFormat;

/**
 * The demo's server-rendered pages: home (with the session counter), upload, events and the signed-in
 * account page.
 */
@Controller
class PageController {

    static final String COUNTER = "counter";

    @GetMapping("/")
    String home(HttpServletRequest request, HttpSession session, Model model) {
        model.addAttribute("counter", counter(session));
        model.addAttribute("serverInfo", request.getServletContext().getServerInfo());
        model.addAttribute("protocol", request.getProtocol());
        model.addAttribute("secure", request.isSecure());
        return "home";
    }

    /** Adds one to this session's counter (POST, with the form's CSRF token), then back home. */
    @PostMapping("/counter")
    String increment(HttpSession session, @RequestParam(defaultValue = "add") String action) {
        session.setAttribute(COUNTER, "reset".equals(action) ? 0 : counter(session) + 1);
        return "redirect:/";
    }

    @GetMapping("/upload")
    String uploadForm() {
        return "upload";
    }

    /** Reads the uploaded file as a stream and shows its name, size and SHA-256. */
    @PostMapping("/upload")
    String upload(@RequestParam("file") MultipartFile file, RedirectAttributes redirect) throws IOException {
        MessageDigest sha256 = sha256();
        long size = 0;
        try (InputStream in = file.getInputStream()) {
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) > 0; ) {
                sha256.update(buffer, 0, n);
                size += n;
            }
        }
        redirect.addFlashAttribute("uploaded", new Upload(file.getOriginalFilename(), size,
                HexFormat.of().formatHex(sha256.digest())));
        return "redirect:/upload";
    }

    @GetMapping("/events")
    String events() {
        return "events";
    }

    @GetMapping("/account")
    String account(Principal principal, HttpSession session, Model model) {
        model.addAttribute("user", principal.getName());
        model.addAttribute("sessionId", session.getId());
        return "account";
    }

    static int counter(HttpSession session) {
        Object value = session.getAttribute(COUNTER);
        return value instanceof Integer count ? count : 0;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What the upload page shows about the last upload. */
    record Upload(String name, long size, String sha256) {
    }
}
