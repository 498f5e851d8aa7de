package dev.wharf.jms.core;

import jakarta.jms.ConnectionMetaData;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/** What a Wharf connection says about itself (Jakarta Messaging 3.1, "ConnectionMetaData"). Immutable. */
public final class WharfConnectionMetaData implements ConnectionMetaData {

    /** The provider's name, as {@link #getJMSProviderName()} reports it. */
    public static final String PROVIDER_NAME = "Wharf";
    static final WharfConnectionMetaData INSTANCE = new WharfConnectionMetaData();

    /** The JMSX properties Wharf sets or carries (3.5.9): the group pair and the delivery count. */
    private static final List<String> JMSX_PROPERTIES = List.of("JMSXGroupID", "JMSXGroupSeq", "JMSXDeliveryCount");

    private WharfConnectionMetaData() {
    }

    @Override
    public String getJMSVersion() {
        return "3.1";
    }

    @Override
    public int getJMSMajorVersion() {
        return 3;
    }

    @Override
    public int getJMSMinorVersion() {
        return 1;
    }

    @Override
    public String getJMSProviderName() {
        return PROVIDER_NAME;
    }

    /** The version of the provider's jar, or "development" when it runs from classes (no manifest). */
    @Override
    public String getProviderVersion() {
        String v = WharfConnectionMetaData.class.getPackage().getImplementationVersion();
        return v == null ? "development" : v;
    }

    @Override
    public int getProviderMajorVersion() {
        return versionPart(0);
    }

    @Override
    public int getProviderMinorVersion() {
        return versionPart(1);
    }

    private int versionPart(int index) {
        String[] parts = getProviderVersion().split("[.-]");
        if (parts.length <= index) {
            return 0;
        }
        try {
            return Integer.parseInt(parts[index]);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @Override
    public Enumeration<String> getJMSXPropertyNames() {
        return Collections.enumeration(JMSX_PROPERTIES);
    }
}
