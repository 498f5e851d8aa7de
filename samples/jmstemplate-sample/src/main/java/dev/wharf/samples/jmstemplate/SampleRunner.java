package dev.wharf.samples.jmstemplate;

import dev.wharf.spring.boot.autoconfigure.WharfConnectionDetails;
import java.io.PrintStream;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.ExitCodeGenerator;
import org.springframework.stereotype.Component;

/**
 * One round of the sample: a reminder (text) and an invoice (JSON) sent and received back, and a price request
 * answered on a temporary queue; prints each with what came back. Exit code 0 when all three came back as sent.
 */
@Component
class SampleRunner implements CommandLineRunner, ExitCodeGenerator {

    private static final DateTimeFormatter INVOICE_NUMBER = DateTimeFormatter.ofPattern("'INV-'yyyyMMdd-HHmmssSSS");

    private final BillingService billing;
    private final AccountsService accounts;
    private final PricingClient pricing;
    private final WharfConnectionDetails broker;
    private final PrintStream out = System.out;
    private volatile int exitCode = 1;

    SampleRunner(BillingService billing, AccountsService accounts, PricingClient pricing,
                 WharfConnectionDetails broker) {
        this.billing = billing;
        this.accounts = accounts;
        this.pricing = pricing;
        this.broker = broker;
    }

    @Override
    public void run(String... args) throws Exception {
        Invoice invoice = new Invoice(LocalDateTime.now().format(INVOICE_NUMBER), "ACME Tea Rooms", 12_999,
                LocalDate.now().plusDays(14));
        out.printf(Locale.ROOT, "%nJmsTemplate sample, on %s%n", describeBroker());

        billing.remind(invoice);
        AccountsService.Received<String> reminder = accounts.reminder(invoice.number());
        boolean reminderBack = reminder != null;
        row("text", "sent to " + BillingService.REMINDERS, reminderBack ? quote(reminder.text()) : "");
        row("", "received", reminderBack ? "the same text, customer " + reminder.customer() : "nothing in time");

        billing.issue(invoice);
        AccountsService.Received<Invoice> received = accounts.invoice(invoice.number());
        boolean invoiceBack = received != null && invoice.equals(received.value());
        row("JSON", "sent to " + BillingService.INVOICES, invoice.toString());
        row("", "on the wire", received == null ? "nothing in time" : received.text());
        row("", "received and converted", received == null ? "nothing in time"
                : "equal to the invoice sent: " + (invoiceBack ? "yes" : "no, " + received.value()));

        PriceRequest request = new PriceRequest("kettle", 3);
        long start = System.nanoTime();
        PriceQuote quote = pricing.quote(request);
        long millis = (System.nanoTime() - start) / 1_000_000;
        boolean quoteBack = quote.totalCents() == 3 * 2_499L;
        row("request", "sent to " + PricingClient.PRICE_REQUESTS, request.toString());
        row("", "reply (temporary queue)", quote + " after " + millis + " ms");

        int ok = (reminderBack ? 1 : 0) + (invoiceBack ? 1 : 0) + (quoteBack ? 1 : 0);
        out.printf(Locale.ROOT, "%s%n", ok == 3 ? "All 3 exchanges came back as sent."
                : (3 - ok) + " of 3 exchanges did not come back as sent.");
        out.flush();
        exitCode = ok == 3 ? 0 : 1;
    }

    private void row(String kind, String what, String detail) {
        out.printf(Locale.ROOT, "  %-8s %-26s %s%n", kind, what, detail);
    }

    private static String quote(String text) {
        return "\"" + text + "\"";
    }

    private String describeBroker() {
        if (broker.embeddedBroker() != null) {
            return "the embedded broker (store " + broker.embeddedBroker().storeDir() + ")";
        }
        return "the broker at " + broker.url();
    }

    @Override
    public int getExitCode() {
        return exitCode;
    }
}
