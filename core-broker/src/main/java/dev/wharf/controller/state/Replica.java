package dev.wharf.controller.state;

/**
 * A registered replica of a broker name. {@code registerCheckCode} is what the broker sent when it asked for an id,
 * kept so that a retry of that registration gets the same id.
 */
public record Replica(long brokerId, String address, String registerCheckCode) {
}
