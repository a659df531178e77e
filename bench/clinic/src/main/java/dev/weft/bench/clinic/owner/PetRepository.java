package dev.weft.bench.clinic.owner;

import java.util.List;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.Repository;
import org.springframework.data.repository.query.Param;

/** Read access to pets. */
public interface PetRepository extends Repository<Pet, Integer> {

    /** An owner's pets with their types and visits (newest visit first), ordered by name. */
    @Query("""
            select p from Pet p
              join fetch p.type
              left join fetch p.visits v
            where p.owner.id = :ownerId
            order by p.name, p.id, v.visitDate desc, v.id desc""")
    List<Pet> findWithVisitsByOwnerId(@Param("ownerId") int ownerId);
}
