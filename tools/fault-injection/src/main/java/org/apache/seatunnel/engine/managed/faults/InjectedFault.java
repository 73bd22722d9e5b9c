package org.apache.seatunnel.engine.managed.faults;

/** Thrown (or passed as a transport failure cause) where a scheduled fault fires. Immutable. */
public final class InjectedFault extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final FaultPoint point;
    private final FaultAction action;

    public InjectedFault(FaultPoint point, FaultAction action, String where) {
        super("injected " + action + " at fault point " + point.number() + " " + point + " (" + where + ")");
        this.point = point;
        this.action = action;
    }

    public FaultPoint point() {
        return point;
    }

    public FaultAction action() {
        return action;
    }

    /** The injected fault in {@code t}'s cause chain, or null. */
    public static InjectedFault find(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof InjectedFault) {
                return (InjectedFault) c;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return null;
    }
}
