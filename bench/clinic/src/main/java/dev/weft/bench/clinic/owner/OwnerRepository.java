package dev.weft.bench.clinic.owner;

import java.util.Collection;
import java.util.List;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.Repository;
import org.springframework.data.repository.query.Param;

/** Read access to owners; every query that feeds a page fetches the pets (and their types) it shows. */
public interface OwnerRepository extends Repository<Owner, Integer> {

    /**
     * The owners whose last name starts with {@code prefix} (case-sensitive), with their pets and the
     * pets' types, in one query ordered by name.
     */
    @Query("""
            select o from Owner o
              left join fetch o.pets p
              left join fetch p.type
            where o.lastName like concat(:prefix, '%')
            order by o.lastName, o.firstName, o.id, p.name, p.id""")
    List<Owner> findWithPetsByLastNameStartingWith(@Param("prefix") String prefix);

    /** The ids of a page of all owners in name order (a page cannot be cut in a query that fetches a collection). */
    @Query("select o.id from Owner o order by o.lastName, o.firstName, o.id")
    List<Integer> findIdsInNameOrder(Pageable page);

    /** The given owners with their pets and the pets' types, ordered by name. */
    @Query("""
            select o from Owner o
              left join fetch o.pets p
              left join fetch p.type
            where o.id in :ids
            order by o.lastName, o.firstName, o.id, p.name, p.id""")
    List<Owner> findWithPetsByIdIn(@Param("ids") Collection<Integer> ids);

    /** One owner, without pets ({@link PetRepository#findWithVisitsByOwnerId} loads those). */
    @Query("select o from Owner o where o.id = :id")
    Owner findById(@Param("id") int id);
}
