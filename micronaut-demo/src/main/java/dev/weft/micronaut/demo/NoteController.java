package dev.weft.micronaut.demo;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import jakarta.validation.Valid;

import java.net.URI;
import java.util.List;
import java.util.Optional;

/** The JSON API: list the notes, read one (404 if there is none with that id), add one (validated). */
@Controller("/api/notes")
public class NoteController {

    private final NoteStore store;

    public NoteController(NoteStore store) {
        this.store = store;
    }

    @Get
    public List<Note> list() {
        return store.all();
    }

    /** An absent note: Micronaut answers a route's empty {@code Optional} with 404. */
    @Get("/{id}")
    public Optional<Note> one(@PathVariable long id) {
        return store.find(id);
    }

    @Post
    public HttpResponse<Note> add(@Body @Valid NoteRequest request) {
        Note note = store.add(request);
        return HttpResponse.created(note, URI.create("/api/notes/" + note.id()));
    }
}
