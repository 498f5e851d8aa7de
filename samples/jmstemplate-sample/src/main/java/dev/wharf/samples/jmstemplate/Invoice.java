package dev.wharf.samples.jmstemplate;

import java.time.LocalDate;

/** An invoice, sent as JSON. */
public record Invoice(String number, String customer, long totalCents, LocalDate due) {
}
