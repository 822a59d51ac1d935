package dev.ctk.fake.internal.inprocess;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The watches one in-process client (and the clients derived from it) opened, so that closing the client closes
 * them: a server keeps no watch of a closed client.
 */
public final class ClientWatches {

  private record OpenWatch(BooleanSupplier isClosed, Runnable close) {
  }

  private final List<OpenWatch> open = new ArrayList<>();
  private boolean closed;

  /**
   * Remembers a watch; one opened after the client closed is closed at once.
   *
   * @param isClosed whether the watch has closed on its own (it is then forgotten)
   * @param close closes the watch
   */
  public void add(BooleanSupplier isClosed, Runnable close) {
    boolean closeNow;
    synchronized (this) {
      open.removeIf(watch -> watch.isClosed().getAsBoolean());
      closeNow = closed;
      if (!closed) {
        open.add(new OpenWatch(isClosed, close));
      }
    }
    if (closeNow) {
      close.run();
    }
  }

  /** Closes every watch still open. */
  void closeAll() {
    List<OpenWatch> toClose;
    synchronized (this) {
      closed = true;
      toClose = List.copyOf(open);
      open.clear();
    }
    toClose.forEach(watch -> watch.close().run());
  }
}
