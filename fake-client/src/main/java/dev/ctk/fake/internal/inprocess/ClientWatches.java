package dev.ctk.fake.internal.inprocess;

import dev.ctk.fake.internal.watch.Watch;
import java.util.ArrayList;
import java.util.List;

/**
 * The store watches one in-process client (and the clients derived from it) opened, so that closing the client
 * closes them: the store keeps no watch of a closed client.
 */
final class ClientWatches {

  private final List<Watch> open = new ArrayList<>();
  private boolean closed;

  /** Remembers a watch; one opened after the client closed is closed at once. */
  void add(Watch watch) {
    boolean closeNow;
    synchronized (this) {
      open.removeIf(Watch::isClosed);
      closeNow = closed;
      if (!closed) {
        open.add(watch);
      }
    }
    if (closeNow) {
      watch.close();
    }
  }

  /** Closes every watch still open. */
  void closeAll() {
    List<Watch> toClose;
    synchronized (this) {
      closed = true;
      toClose = List.copyOf(open);
      open.clear();
    }
    toClose.forEach(Watch::close);
  }
}
