package dev.wharf.jms.it.foreign;

import jakarta.jms.ObjectMessage;
import java.io.Serializable;

/** The other provider's object message; it keeps the object itself (no copy), which the interface allows. */
public final class ForeignObjectMessage extends ForeignMessage implements ObjectMessage {

    private Serializable object;

    public ForeignObjectMessage(Serializable object) {
        this.object = object;
    }

    @Override
    public void setObject(Serializable object) {
        this.object = object;
    }

    @Override
    public Serializable getObject() {
        return object;
    }

    @Override
    public void clearBody() {
        object = null;
    }

    @Override
    Object body() {
        return object;
    }
}
