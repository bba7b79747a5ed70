package io.minibroker.broker.control;

/** An error rule as set: its id (to remove it) and how many requests it has left (-1: until removed). */
public record InstalledRule(long id, ErrorRule rule, int remaining) {
}
