package dev.ctk.envtest.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Test support, run in a child JVM: {@code hold <file>} locks the file, prints {@code locked} and keeps the lock
 * until its standard input ends; {@code probe <file>} exits 0 when it could take the lock (nobody held it) and 3
 * when another process holds it.
 */
public final class LockProbeMain {

  private LockProbeMain() {}

  /**
   * Holds or probes a lock.
   *
   * @param args {@code hold|probe <file>}
   * @throws IOException when the file cannot be opened
   */
  public static void main(String[] args) throws IOException {
    Path file = Path.of(args[1]);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      if (args[0].equals("hold")) {
        try (FileLock lock = channel.lock()) {
          System.out.println("locked");
          System.out.flush();
          while (System.in.read() >= 0) {
            // hold until the parent closes our standard input
          }
        }
        return;
      }
      FileLock lock = channel.tryLock();
      System.exit(lock == null ? 3 : 0);
    }
  }
}
