package dev.wharf.samples.jmstemplate;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.stereotype.Service;

/**
 * The receiving side: takes the messages about one invoice from the queues with JmsTemplate's synchronous
 * receive and a message selector (waiting up to {@code spring.jms.template.receive-timeout}).
 */
@Service
public class AccountsService {

    /** A received message: its text as it travelled, and what it was converted to. */
    public record Received<T>(String text, T value, String customer) {
    }

    private final JmsTemplate jms;

    public AccountsService(JmsTemplate jms) {
        this.jms = jms;
    }

    /** The reminder about an invoice, or null when none came in time. */
    public Received<String> reminder(String invoiceNumber) throws JMSException {
        Message m = jms.receiveSelected(BillingService.REMINDERS, selector(invoiceNumber));
        if (m == null) {
            return null;
        }
        String text = ((TextMessage) m).getText();
        return new Received<>(text, text, m.getStringProperty("customer"));
    }

    /** The invoice with that number (from its JSON), or null when none came in time. */
    public Received<Invoice> invoice(String invoiceNumber) throws JMSException {
        Message m = jms.receiveSelected(BillingService.INVOICES, selector(invoiceNumber));
        if (m == null) {
            return null;
        }
        Invoice invoice = (Invoice) jms.getMessageConverter().fromMessage(m);
        return new Received<>(((TextMessage) m).getText(), invoice, invoice.customer());
    }

    private static String selector(String invoiceNumber) {
        return BillingService.INVOICE_NUMBER + " = '" + invoiceNumber.replace("'", "''") + "'";
    }
}
