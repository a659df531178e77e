package dev.weft.micronaut.demo;

import jakarta.inject.Singleton;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/** The notes, in memory, in the order they were added; starts with one so that the list is not empty. */
@Singleton
public class NoteStore {

    private final ConcurrentSkipListMap<Long, Note> notes = new ConcurrentSkipListMap<>();
    private final AtomicLong ids = new AtomicLong();

    public NoteStore() {
        add(new NoteRequest("Welcome", "Served by Micronaut on Weft."));
    }

    public Note add(NoteRequest request) {
        long id = ids.incrementAndGet();
        Note note = new Note(id, request.title(), request.text() == null ? "" : request.text());
        notes.put(id, note);
        return note;
    }

    public List<Note> all() {
        return List.copyOf(notes.values());
    }

    public Optional<Note> find(long id) {
        return Optional.ofNullable(notes.get(id));
    }
}
