package dev.weft.mvcdemo;

import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.handler.annotation.SendTo;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

import java.time.LocalTime;
import java.time.temporal.ChronoUnit;

/** The chat page, and the chat lines its STOMP client sends, passed on to every subscriber with the time. */
@Controller
class ChatController {

    /** What a client sends to {@code /app/chat}. */
    record ChatMessage(String name, String text) {
    }

    /** What subscribers of {@code /topic/chat} receive. */
    record ChatLine(String name, String text, String time) {
    }

    @GetMapping("/chat")
    String page() {
        return "chat";
    }

    /** Stamps a chat line with the server's time; names and texts are trimmed and cut to a sensible length. */
    @MessageMapping("/chat")
    @SendTo("/topic/chat")
    ChatLine chat(ChatMessage message) {
        String name = cut(message.name(), 30);
        return new ChatLine(name.isEmpty() ? "anonymous" : name, cut(message.text(), 500),
                LocalTime.now().truncatedTo(ChronoUnit.SECONDS).toString());
    }

    private static String cut(String value, int max) {
        String trimmed = value == null ? "" : value.strip();
        return trimmed.length() > max ? trimmed.substring(0, max) : trimmed;
    }
}
