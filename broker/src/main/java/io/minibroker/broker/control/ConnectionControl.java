package io.minibroker.broker.control;

/** What the controls ask of the broker's client connections (the server's accepted connections implement it). */
public interface ConnectionControl {

    /** Closes every open client connection now, with no answer to what is in flight. */
    void closeAll();

    /** Closes each new connection as soon as it is accepted while {@code refuse} holds. */
    void refuseNew(boolean refuse);
}
