package dev.weft.bench.clinic.owner;

import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import java.time.LocalDate;

/** A visit of a {@link Pet} to the clinic. */
@Entity
@Table(name = "visits")
public class Visit {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Integer id;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "pet_id")
    private Pet pet;

    private LocalDate visitDate;

    private String description;

    protected Visit() {
    }

    public Integer getId() {
        return id;
    }

    public Pet getPet() {
        return pet;
    }

    public LocalDate getVisitDate() {
        return visitDate;
    }

    public String getDescription() {
        return description;
    }
}
