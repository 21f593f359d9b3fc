// Modelled on: DPDK drivers/net/virtio/virtio_pci.c:modern_read_dev_config() and
//   modern_get_features() (DPDK 22.11); virtio 1.x spec "config_generation".
// FLAGS: @dpdk@
// Correct: a multi-byte read of device config space is bracketed by two reads of
// config_generation and repeated until they match. This is not an odd/even protocol:
// the device changes the generation whenever the config changed, never exposes an
// "in progress" value, and the driver never writes it. rte_read8() is an MMIO read
// followed by rte_io_rmb(), so the reads are ordered without any other barrier.
#include <stdint.h>
#include <stddef.h>
#include <rte_io.h>
#include <rte_byteorder.h>

struct virtio_pci_common_cfg {
	uint32_t device_feature_select;
	uint32_t device_feature;
	uint32_t guest_feature_select;
	uint32_t guest_feature;
	uint16_t msix_config;
	uint16_t num_queues;
	uint8_t device_status;
	uint8_t config_generation;
};

struct virtio_pci_dev {
	struct virtio_pci_common_cfg *common_cfg;
	void *dev_cfg;
};

struct virtio_net_config {
	uint8_t mac[6];
	uint16_t status;
	uint16_t max_virtqueue_pairs;
	uint16_t mtu;
};

static void
modern_read_dev_config(struct virtio_pci_dev *dev, size_t offset, void *dst, int length)
{
	int i;
	uint8_t *p;
	uint8_t old_gen, new_gen;

	do {
		old_gen = rte_read8(&dev->common_cfg->config_generation);

		p = dst;
		for (i = 0; i < length; i++)
			*p++ = rte_read8((uint8_t *)dev->dev_cfg + offset + i);

		new_gen = rte_read8(&dev->common_cfg->config_generation);
	} while (old_gen != new_gen);
}

static uint64_t
modern_get_features(struct virtio_pci_dev *dev)
{
	uint32_t features_lo, features_hi;

	rte_write32(0, &dev->common_cfg->device_feature_select);
	features_lo = rte_read32(&dev->common_cfg->device_feature);

	rte_write32(1, &dev->common_cfg->device_feature_select);
	features_hi = rte_read32(&dev->common_cfg->device_feature);

	return ((uint64_t)features_hi << 32) | features_lo;
}

int
virtio_net_read_mac_mtu(struct virtio_pci_dev *dev, uint8_t mac[6], uint16_t *mtu)
{
	struct virtio_net_config cfg;

	if (!(modern_get_features(dev) & (1ULL << 5)))
		return -1;

	modern_read_dev_config(dev, offsetof(struct virtio_net_config, mac), mac, 6);
	modern_read_dev_config(dev, offsetof(struct virtio_net_config, mtu),
			       &cfg.mtu, sizeof(cfg.mtu));
	*mtu = rte_le_to_cpu_16(cfg.mtu);
	return 0;
}
