package dev.weft.bench.clinic.owner;

import java.util.List;
import org.springframework.data.domain.PageRequest;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ResponseStatusException;

/** The owner pages, rendered by Thymeleaf ({@code templates/owners/*.html}). */
@Controller
class OwnerController {

    /** Owners listed when the search has no last name. */
    static final int FIRST_PAGE_SIZE = 20;

    private final OwnerRepository owners;
    private final PetRepository pets;

    OwnerController(OwnerRepository owners, PetRepository pets) {
        this.owners = owners;
        this.pets = pets;
    }

    /**
     * {@code GET /owners?lastName=Da}: the owners whose last name starts with the given text, with their
     * pets; without a last name, the first {@value #FIRST_PAGE_SIZE} owners in name order.
     */
    @GetMapping("/owners")
    String list(@RequestParam(required = false) String lastName, Model model) {
        String prefix = lastName == null ? "" : lastName.strip();
        List<Owner> found;
        if (prefix.isEmpty()) {
            List<Integer> ids = owners.findIdsInNameOrder(PageRequest.of(0, FIRST_PAGE_SIZE));
            found = ids.isEmpty() ? List.of() : owners.findWithPetsByIdIn(ids);
        } else {
            found = owners.findWithPetsByLastNameStartingWith(prefix);
        }
        model.addAttribute("lastName", prefix);
        model.addAttribute("owners", found);
        model.addAttribute("petCount", found.stream().mapToInt(o -> o.getPets().size()).sum());
        return "owners/list";
    }

    /** {@code GET /owners/42}: one owner with pets and their visits. */
    @GetMapping("/owners/{id}")
    String show(@PathVariable int id, Model model) {
        Owner owner = owners.findById(id);
        if (owner == null) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no owner " + id);
        }
        List<Pet> ownerPets = pets.findWithVisitsByOwnerId(id);
        model.addAttribute("owner", owner);
        model.addAttribute("pets", ownerPets);
        model.addAttribute("visitCount", ownerPets.stream().mapToInt(p -> p.getVisits().size()).sum());
        return "owners/detail";
    }
}
