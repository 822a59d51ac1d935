package dev.ctk.envtest.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * The few bytes of the POSIX tar (ustar) format that copying files into and out of a container
 * needs: Docker's archive endpoints speak tar only.
 *
 * <pre>{@code
 * byte[] tar = ContainerTar.archive(Map.of("ctk/auth/tokens.csv", bytes), 0600);
 * Optional<byte[]> cert = ContainerTar.firstFile(docker.copyArchiveFromContainerCmd(id, path).exec());
 * }</pre>
 *
 * <p>Limits: regular files and their parent folders only, names up to 100 bytes, no links, no
 * sparse files, no long-name extensions (a PAX or GNU header is skipped like any other entry).
 */
public final class ContainerTar {

  private static final int BLOCK = 512;

  private ContainerTar() {}

  /**
   * A tar archive holding {@code files} (relative names, {@code /}-separated), each with {@code
   * mode}, owned by root, preceded by entries for their parent folders (mode 0755).
   *
   * @param files relative file name to content, in the order to write them
   * @param mode the permission bits of every file, e.g. {@code 0600}
   * @return the archive
   */
  public static byte[] archive(Map<String, byte[]> files, int mode) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    java.util.Set<String> folders = new java.util.LinkedHashSet<>();
    for (String name : files.keySet()) {
      int slash = name.indexOf('/');
      while (slash > 0) {
        folders.add(name.substring(0, slash + 1));
        slash = name.indexOf('/', slash + 1);
      }
    }
    for (String folder : folders) {
      writeHeader(out, folder, 0755, 0, '5');
    }
    for (Map.Entry<String, byte[]> file : files.entrySet()) {
      byte[] content = file.getValue();
      writeHeader(out, file.getKey(), mode, content.length, '0');
      out.writeBytes(content);
      out.writeBytes(new byte[padding(content.length)]);
    }
    out.writeBytes(new byte[BLOCK * 2]);
    return out.toByteArray();
  }

  /**
   * The content of the first regular file in a tar stream (what Docker sends for one copied file).
   *
   * @param tar the stream; read to the first file, not closed
   * @return the content, or empty if the archive holds no regular file
   * @throws IOException if the stream cannot be read or is not a tar archive
   */
  public static Optional<byte[]> firstFile(InputStream tar) throws IOException {
    while (true) {
      byte[] header = tar.readNBytes(BLOCK);
      if (header.length < BLOCK || isZero(header)) {
        return Optional.empty();
      }
      long size = octal(header, 124, 12);
      byte type = header[156];
      long padded = size + padding(size);
      if (type == '0' || type == 0) {
        byte[] content = tar.readNBytes(Math.toIntExact(size));
        if (content.length < size) {
          throw new IOException("tar archive ended inside a file (expected " + size + " bytes)");
        }
        return Optional.of(content);
      }
      tar.skipNBytes(padded);
    }
  }

  private static void writeHeader(
      ByteArrayOutputStream out, String name, int mode, long size, char type) {
    byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
    if (nameBytes.length > 100) {
      throw new IllegalArgumentException("tar entry name longer than 100 bytes: " + name);
    }
    byte[] header = new byte[BLOCK];
    System.arraycopy(nameBytes, 0, header, 0, nameBytes.length);
    putOctal(header, 100, 8, mode);
    putOctal(header, 108, 8, 0);
    putOctal(header, 116, 8, 0);
    putOctal(header, 124, 12, size);
    putOctal(header, 136, 12, 0);
    for (int i = 148; i < 156; i++) {
      header[i] = ' ';
    }
    header[156] = (byte) type;
    byte[] magic = "ustar\u000000".getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(magic, 0, header, 257, magic.length);
    long checksum = 0;
    for (byte b : header) {
      checksum += b & 0xff;
    }
    String sum = String.format("%06o", checksum);
    byte[] sumBytes = sum.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(sumBytes, 0, header, 148, sumBytes.length);
    header[154] = 0;
    header[155] = ' ';
    out.writeBytes(header);
  }

  private static void putOctal(byte[] header, int offset, int length, long value) {
    String text = String.format("%0" + (length - 1) + "o", value);
    byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(bytes, 0, header, offset, bytes.length);
    header[offset + length - 1] = 0;
  }

  private static long octal(byte[] header, int offset, int length) throws IOException {
    long value = 0;
    for (int i = offset; i < offset + length; i++) {
      byte b = header[i];
      if (b == 0 || b == ' ') {
        if (value > 0) {
          break;
        }
        continue;
      }
      if (b < '0' || b > '7') {
        throw new IOException("not a tar archive: bad octal digit in a header");
      }
      value = value * 8 + (b - '0');
    }
    return value;
  }

  private static int padding(long size) {
    return (int) ((BLOCK - size % BLOCK) % BLOCK);
  }

  private static boolean isZero(byte[] block) {
    for (byte b : block) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }
}
