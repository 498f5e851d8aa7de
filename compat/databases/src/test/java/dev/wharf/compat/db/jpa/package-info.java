/** The transactional order flow on Spring Data JPA (Hibernate) and a real database. */
package dev.wharf.compat.db.jpa;
