package dev.weft.bench.clinic.system;

import java.sql.Date;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Writes the clinic's data set into the (empty, just created) in-memory database at startup: 8 pet types,
 * {@value #OWNERS} owners, about 1,000 pets and about 2,000 visits, drawn from a {@link Random} with a
 * fixed seed, so every start of every variant holds exactly the same rows.
 *
 * <p>Last names are dealt round-robin from {@link #LAST_NAMES} (125 names, 4 owners each), so a prefix
 * matches a known number of owners: {@code Da} (Dalton, Daniels, Davis, Dawson, Day) exactly 20,
 * {@code Ma} (Marshall, Martin, Mason) 12, {@code Davis} 4. The owners' ids are shuffled so that name
 * order and id order differ.
 *
 * <p>Runs while the application context is refreshed (a bean's initialization), so before the web server
 * listens and before the {@code ready} line is printed. Plain JDBC batches: a few hundred milliseconds.
 */
@Component
class DataSeeder implements InitializingBean {

    private static final Logger log = LoggerFactory.getLogger(DataSeeder.class);

    static final long SEED = 20_260_607L;
    static final int OWNERS = 500;

    private static final List<String> LAST_NAMES = List.of(
            "Adams", "Allen", "Anderson", "Armstrong", "Bailey", "Baker", "Barnes", "Bell", "Bennett",
            "Brooks", "Brown", "Bryant", "Butler", "Campbell", "Carter", "Castillo", "Chapman", "Clark",
            "Cole", "Coleman", "Collins", "Cook", "Cooper", "Cox", "Cruz", "Dalton", "Daniels", "Davis",
            "Dawson", "Day", "Diaz", "Dixon", "Duncan", "Edwards", "Ellis", "Evans", "Fisher", "Fleming",
            "Ford", "Foster", "Fox", "Garcia", "Gibson", "Gomez", "Gonzalez", "Graham", "Grant", "Gray",
            "Green", "Griffin", "Hall", "Hamilton", "Harris", "Hayes", "Henderson", "Hill", "Holmes",
            "Howard", "Hughes", "Hunt", "Jackson", "James", "Jenkins", "Johnson", "Jones", "Jordan",
            "Kelly", "Kennedy", "King", "Knight", "Lane", "Lee", "Lewis", "Long", "Lopez", "Marshall",
            "Martin", "Mason", "Meyer", "Miller", "Mitchell", "Moore", "Morgan", "Morris", "Murphy",
            "Murray", "Nelson", "Nguyen", "Owens", "Palmer", "Parker", "Patel", "Perez", "Perry",
            "Peterson", "Phillips", "Porter", "Powell", "Price", "Ramirez", "Reed", "Reyes", "Reynolds",
            "Richardson", "Rivera", "Roberts", "Robinson", "Rogers", "Ross", "Russell", "Sanders", "Scott",
            "Shaw", "Simmons", "Smith", "Stewart", "Sullivan", "Taylor", "Thomas", "Turner", "Walker",
            "Ward", "Watson", "Wells", "Young");

    private static final List<String> FIRST_NAMES = List.of(
            "Aaron", "Abigail", "Adrian", "Alice", "Amelia", "Andrew", "Anna", "Arthur", "Beatrice",
            "Benjamin", "Brandon", "Caleb", "Camila", "Carlos", "Charlotte", "Chloe", "Daniel", "David",
            "Diana", "Dylan", "Eleanor", "Elena", "Elijah", "Emily", "Emma", "Ethan", "Evelyn", "Felix",
            "Fiona", "Gabriel", "George", "Grace", "Hannah", "Harper", "Henry", "Isaac", "Isabel", "Jack",
            "Jacob", "James", "Jasmine", "Julia", "Julian", "Kevin", "Laura", "Leah", "Leo", "Liam", "Lily",
            "Lucas", "Lucy", "Maria", "Mason", "Maya", "Mia", "Michael", "Naomi", "Nathan", "Noah", "Nora",
            "Oliver", "Olivia", "Oscar", "Paul", "Peter", "Quinn", "Rachel", "Robert", "Rose", "Ruby",
            "Samuel", "Sarah", "Sofia", "Sophie", "Thomas", "Victor", "Violet", "William", "Zoe", "Zachary");

    private static final List<String> STREETS = List.of(
            "Oak", "Maple", "Cedar", "Pine", "Elm", "Willow", "Birch", "Chestnut", "Walnut", "Spruce",
            "Lake", "Hill", "River", "Park", "Meadow", "Forest", "Sunset", "Highland", "Church", "Mill",
            "Station", "Bridge", "Garden", "Orchard", "Spring");

    private static final List<String> STREET_KINDS = List.of("Street", "Avenue", "Road", "Lane", "Drive", "Court");

    private static final List<String> CITIES = List.of(
            "Ashford", "Bramley", "Carlton", "Dunmore", "Eastwick", "Fairhaven", "Glenwood", "Harrow",
            "Kingsbridge", "Lakeside", "Millbrook", "Northfield", "Oakridge", "Riverton", "Westbury");

    private static final List<String> PET_TYPES = List.of(
            "bird", "cat", "dog", "ferret", "hamster", "lizard", "rabbit", "snake");

    private static final List<String> PET_NAMES = List.of(
            "Apollo", "Bailey", "Bandit", "Basil", "Bella", "Biscuit", "Blue", "Bonnie", "Buddy", "Buster",
            "Charlie", "Chester", "Clover", "Coco", "Cooper", "Daisy", "Dexter", "Duke", "Ember", "Finn",
            "Freya", "George", "Ginger", "Goldie", "Gus", "Hazel", "Honey", "Iggy", "Jasper", "Juno", "Kiwi",
            "Leo", "Loki", "Lola", "Louie", "Luna", "Maple", "Marley", "Milo", "Mittens", "Mochi", "Molly",
            "Murphy", "Nala", "Nemo", "Nova", "Olive", "Oreo", "Ozzy", "Peanut", "Pebbles", "Pepper",
            "Pickles", "Piper", "Pippin", "Poppy", "Pumpkin", "Rex", "Riley", "Rocky", "Rosie", "Ruby",
            "Rusty", "Sadie", "Sage", "Sammy", "Scout", "Shadow", "Simba", "Skye", "Smokey", "Sox",
            "Sparky", "Sunny", "Teddy", "Thor", "Tiger", "Toby", "Tucker", "Willow", "Winston", "Ziggy");

    private static final List<String> VISIT_REASONS = List.of(
            "annual check-up", "vaccination booster", "rabies shot", "dental cleaning", "nail trim",
            "ear infection", "skin allergy", "limping on the left hind leg", "limping on the right front leg",
            "upset stomach", "weight check", "spaying", "neutering", "microchip implant", "eye discharge",
            "follow-up after surgery", "blood panel", "x-ray of the chest", "deworming", "flea treatment",
            "coughing for a week", "lost appetite", "stitches removed", "behaviour consultation");

    private static final LocalDate FIRST_BIRTH_DATE = LocalDate.of(2010, 1, 1);
    private static final LocalDate LAST_VISIT_DATE = LocalDate.of(2025, 12, 31);

    private final JdbcTemplate jdbc;

    DataSeeder(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void afterPropertiesSet() {
        if (LAST_NAMES.size() != 125 || new HashSet<>(LAST_NAMES).size() != LAST_NAMES.size()) {
            throw new IllegalStateException("LAST_NAMES must hold 125 distinct names");
        }
        long start = System.nanoTime();
        Random random = new Random(SEED);

        List<Object[]> types = new ArrayList<>();
        for (int i = 0; i < PET_TYPES.size(); i++) {
            types.add(new Object[] {i + 1, PET_TYPES.get(i)});
        }
        jdbc.batchUpdate("INSERT INTO types (id, name) VALUES (?, ?)", types);

        List<Integer> ownerIds = new ArrayList<>();
        for (int id = 1; id <= OWNERS; id++) {
            ownerIds.add(id);
        }
        Collections.shuffle(ownerIds, random);

        List<Object[]> owners = new ArrayList<>(OWNERS);
        List<Object[]> pets = new ArrayList<>();
        List<Object[]> visits = new ArrayList<>();
        for (int i = 0; i < OWNERS; i++) {
            int ownerId = ownerIds.get(i);
            String address = (1 + random.nextInt(980)) + " " + pick(random, STREETS) + " " + pick(random, STREET_KINDS);
            String telephone = String.format("%03d%03d%04d",
                    200 + random.nextInt(800), random.nextInt(1000), random.nextInt(10_000));
            owners.add(new Object[] {ownerId, pick(random, FIRST_NAMES), LAST_NAMES.get(i % LAST_NAMES.size()),
                    address, pick(random, CITIES), telephone});

            // 1 to 4 pets, 2.05 on average.
            int r = random.nextInt(20);
            int petCount = r < 7 ? 1 : r < 14 ? 2 : r < 18 ? 3 : 4;
            for (int p = 0; p < petCount; p++) {
                int petId = pets.size() + 1;
                LocalDate birth = FIRST_BIRTH_DATE.plusDays(random.nextInt(5_200));
                pets.add(new Object[] {petId, pick(random, PET_NAMES), Date.valueOf(birth),
                        1 + random.nextInt(PET_TYPES.size()), ownerId});

                // 0 to 4 visits, 2 on average, between the birth date and the end of 2025.
                int visitCount = random.nextInt(5);
                long span = LAST_VISIT_DATE.toEpochDay() - birth.toEpochDay();
                for (int v = 0; v < visitCount; v++) {
                    LocalDate date = birth.plusDays(1 + (long) (random.nextDouble() * span));
                    visits.add(new Object[] {visits.size() + 1, petId, Date.valueOf(date), pick(random, VISIT_REASONS)});
                }
            }
        }
        jdbc.batchUpdate("INSERT INTO owners (id, first_name, last_name, address, city, telephone)"
                + " VALUES (?, ?, ?, ?, ?, ?)", owners);
        jdbc.batchUpdate("INSERT INTO pets (id, name, birth_date, type_id, owner_id) VALUES (?, ?, ?, ?, ?)", pets);
        jdbc.batchUpdate("INSERT INTO visits (id, pet_id, visit_date, description) VALUES (?, ?, ?, ?)", visits);
        log.info("seeded {} owners, {} pets, {} visits in {} ms", owners.size(), pets.size(), visits.size(),
                (System.nanoTime() - start) / 1_000_000);
    }

    private static String pick(Random random, List<String> values) {
        return values.get(random.nextInt(values.size()));
    }
}
