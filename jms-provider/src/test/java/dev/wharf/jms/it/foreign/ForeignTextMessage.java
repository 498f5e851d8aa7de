package dev.wharf.jms.it.foreign;

import jakarta.jms.TextMessage;

/** The other provider's text message. */
public final class ForeignTextMessage extends ForeignMessage implements TextMessage {

    private String text;

    public ForeignTextMessage(String text) {
        this.text = text;
    }

    @Override
    public void setText(String string) {
        this.text = string;
    }

    @Override
    public String getText() {
        return text;
    }

    @Override
    public void clearBody() {
        text = null;
    }

    @Override
    Object body() {
        return text;
    }
}
