package dev.wharf.samples.jmstemplate;

import jakarta.jms.TextMessage;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.stereotype.Service;

/** The sending side of billing: reminders as plain text, invoices as JSON. */
@Service
public class BillingService {

    static final String REMINDERS = "reminders";
    static final String INVOICES = "invoices";
    /** Message property naming the invoice a message is about; receivers select on it. */
    static final String INVOICE_NUMBER = "invoiceNumber";

    private final JmsTemplate jms;

    public BillingService(JmsTemplate jms) {
        this.jms = jms;
    }

    /** A text message made by hand, with a property. */
    public void remind(Invoice invoice) {
        jms.send(REMINDERS, session -> {
            TextMessage m = session.createTextMessage("Invoice " + invoice.number() + " of "
                    + invoice.totalCents() / 100 + "." + String.format("%02d", invoice.totalCents() % 100)
                    + " is due on " + invoice.due());
            m.setStringProperty(INVOICE_NUMBER, invoice.number());
            m.setStringProperty("customer", invoice.customer());
            return m;
        });
    }

    /** An object, turned into a JSON text message by the application's MessageConverter. */
    public void issue(Invoice invoice) {
        jms.convertAndSend(INVOICES, invoice, m -> {
            m.setStringProperty(INVOICE_NUMBER, invoice.number());
            return m;
        });
    }
}
